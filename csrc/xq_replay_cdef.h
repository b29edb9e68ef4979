/* cffi declarations for xq_replay.h (parsed after xq_cdef.h). */
int xq_play_text(xq_pos *pos, const char *text, size_t len, xq_undo *undos, int cap, size_t *stop);
int xq_text_ending(const xq_pos *pos, const xq_undo *undos, int n, int count, int flags, struct xq_rep_info *loops,
                   char *fen, size_t cap, int *out);
