/* cffi declarations for xq_replay.h (parsed after xq_cdef.h). */
int xq_play_text(xq_pos *pos, const char *text, size_t len, xq_undo *undos, int cap, size_t *stop);
