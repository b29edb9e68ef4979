/* cffi-parsable mirror of the parts of xq.h that Python uses (no #include,
   no #if; struct layouts left to the compiler with "...;"). */
#define XQ_MAX_MOVES ...
#define XQ_FEN_MAX ...
#define XQ_SQ_NONE ...
#define XQ_FEN_ALLOW_NO_KING ...
#define XQ_FEN_ALLOW_ANY_COUNT ...
#define XQ_OK ...
#define XQ_E_FEN_SYNTAX ...
#define XQ_E_FEN_POSITION ...
#define XQ_E_MOVE_FORMAT ...
#define XQ_E_ILLEGAL_MOVE ...
#define XQ_E_BUFFER_SMALL ...
#define XQ_E_ARG ...
#define XQ_E_HASH_MISMATCH ...

typedef uint16_t xq_move;

typedef struct xq_pos {
    uint64_t key;
    uint32_t fullmove;
    uint16_t halfmove;
    uint8_t side;
    uint8_t king_sq[2];
    uint8_t board[90];
    ...;
} xq_pos;

typedef struct xq_undo {
    uint64_t key;
    uint32_t fullmove;
    uint16_t halfmove;
    xq_move move;
    uint8_t captured;
    ...;
} xq_undo;

void xq_init(void);
const char *xq_version(void);
const char *xq_build_hash(void);
const char *xq_status_str(int status);

int xq_pos_set_fen(xq_pos *pos, const char *fen, size_t len, size_t *err_offset);
int xq_pos_set_fen_flags(xq_pos *pos, const char *fen, size_t len, size_t *err_offset, unsigned flags);
int xq_pos_fen(const xq_pos *pos, char *buf, size_t cap);
void xq_pos_copy(xq_pos *dst, const xq_pos *src);
int xq_pos_check(const xq_pos *pos);

int xq_pos_do_move(xq_pos *pos, xq_move move, xq_undo *undo);
int xq_pos_undo_move(xq_pos *pos, const xq_undo *undo);
int xq_pos_play_codes(xq_pos *pos, const xq_move *moves, int n, xq_undo *undos, int check_legal);
int xq_pos_push(xq_pos *pos, xq_move move, xq_undo *undos, int i);
int xq_pos_pop(xq_pos *pos, xq_move move, const xq_undo *undos, int i);
void xq_pos_do_null(xq_pos *pos, xq_undo *undo);
void xq_pos_undo_null(xq_pos *pos, const xq_undo *undo);

uint64_t xq_pos_key(const xq_pos *pos);
uint64_t xq_pos_key_recompute(const xq_pos *pos);

int xq_gen_legal(const xq_pos *pos, xq_move *out, int cap);
int xq_gen_pseudo_legal(const xq_pos *pos, xq_move *out, int cap);
int xq_count_legal(const xq_pos *pos);
int xq_pos_is_legal(const xq_pos *pos, xq_move move);
int xq_pos_is_pseudo_legal(const xq_pos *pos, xq_move move);
int xq_gives_check(const xq_pos *pos, xq_move move);

int xq_pos_in_check(const xq_pos *pos);
void xq_pos_checkers(const xq_pos *pos, uint64_t out[2]);
void xq_pos_pieces(const xq_pos *pos, int color, int type, uint64_t out[2]);
void xq_attackers_to(const xq_pos *pos, int sq, int color, uint64_t out[2]);
void xq_attack_counts(const xq_pos *pos, int color, uint8_t out[90]);

uint64_t xq_perft(const xq_pos *pos, int depth, int bulk);
uint64_t xq_perft_stoppable(const xq_pos *pos, int depth, int bulk, const int *stop);
int xq_perft_divide(const xq_pos *pos, int depth, int bulk, xq_move *moves, uint64_t *counts, int cap);
#define XQ_PERFT_HASH_BUCKET ...
int xq_perft_hashed(const xq_pos *pos, int depth, void *table, size_t table_bytes, uint32_t verify_every,
                    const int *stop, uint64_t *nodes);
