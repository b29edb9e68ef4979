/* cffi declarations for xq_batch.h (parsed after xq_cdef.h). */
#define XQ_PACKED_SIZE ...
#define XQ_MOVE_INDEX_NB ...
#define XQ_PLANES_NB ...
#define XQ_IN_FEN ...
#define XQ_IN_PACKED ...
#define XQ_IN_POS ...
#define XQ_VIEW_ABSOLUTE ...
#define XQ_VIEW_SIDE_TO_MOVE ...

typedef struct xq_batch_in {
    int kind;
    int64_t count;
    const char *fen_text;
    const int64_t *fen_offsets;
    const uint8_t *packed;
    const xq_pos *pos;
    ...;
} xq_batch_in;

int xq_pos_pack(const xq_pos *pos, uint8_t *out);
int xq_pos_unpack(xq_pos *pos, const uint8_t *in);

int xq_move_index(xq_move m);
xq_move xq_move_index_move(int i);
xq_move xq_move_rotate(xq_move m);

int xq_batch_load(const xq_batch_in *in, int64_t i, xq_pos *out);
int64_t xq_batch_legal_moves(const xq_batch_in *in, int64_t begin, int64_t end,
                             xq_move *moves, int64_t cap, int64_t *counts, int8_t *status);
int xq_batch_perft(const xq_batch_in *in, int64_t begin, int64_t end, int depth, int bulk,
                   uint64_t *nodes, int8_t *status);
int xq_batch_perft_stoppable(const xq_batch_in *in, int64_t begin, int64_t end, int depth, int bulk,
                             uint64_t *nodes, int8_t *status, const int *stop);
int xq_batch_zobrist(const xq_batch_in *in, int64_t begin, int64_t end, uint64_t *keys, int8_t *status);
int xq_batch_attack_maps(const xq_batch_in *in, int64_t begin, int64_t end, uint8_t *maps, int8_t *status);
int xq_batch_planes(const xq_batch_in *in, int64_t begin, int64_t end, int view, uint8_t *planes,
                    int8_t *status);
int xq_batch_legal_mask(const xq_batch_in *in, int64_t begin, int64_t end, int view, uint8_t *mask,
                        int8_t *status);
int xq_batch_pack(const xq_batch_in *in, int64_t begin, int64_t end, uint8_t *packed, int8_t *status);
int64_t xq_batch_fens(const xq_batch_in *in, int64_t begin, int64_t end, char *text, int64_t cap,
                      int8_t *status);
