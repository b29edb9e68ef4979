/*
 * xq_batch.h - public C API: batch loops over many positions (included by
 * xq.h).
 *
 * Every batch function reads the items [begin, end) of an xq_batch_in (N
 * positions given as FEN text, packed records or xq_pos structs), writes
 * each item's result at that item's own index in the caller's output
 * arrays (the variable-length outputs of xq_batch_legal_moves and
 * xq_batch_fens go to a buffer per call instead), and records a per-item
 * status (XQ_OK or a negative XQ_E_* code) in status[i] when `status` is
 * not NULL.  An item that cannot be read
 * (bad FEN, corrupt packed record) gets its status and a zero result; the
 * other items are computed.  The functions return XQ_E_ARG without writing
 * anything when the call itself is wrong (NULL pointers, a range outside
 * [0, count], an unknown kind or view).
 *
 * Because results go to fixed per-item places, the caller can split one
 * batch into ranges and run them on several threads at once (every function
 * here is reentrant; call xq_init() first).  Nothing allocates.
 *
 * Output layouts (all C order):
 *   attack maps  uint8  [N][2][10][9]  attacker counts; [i][c] is color c
 *                (0 = Black, 1 = Red); row 0 is rank 9, column = file.
 *   planes       uint8  [N][XQ_PLANES_NB][10][9], 0 or 1; row 0 is rank 9.
 *                XQ_VIEW_ABSOLUTE: plane (color * 7 + type - 1) holds the
 *                pieces of that color and type (0-6 Black pawn..king, 7-13
 *                Red pawn..king); XQ_VIEW_SIDE_TO_MOVE: planes 0-6 hold the
 *                side to move's pieces and 7-13 the opponent's, and when
 *                Black is to move the board is turned 180 degrees (square s
 *                is drawn as square 89 - s), so the side to move always
 *                plays up from the bottom rows.  Plane 14 is all 1 when Red
 *                is to move, all 0 when Black is.
 *   legal mask   uint8  [N][XQ_MOVE_INDEX_NB], 1 where the move with that
 *                move index is legal.  With XQ_VIEW_SIDE_TO_MOVE a Black
 *                move m is entered at the index of xq_move_rotate(m).
 */
#ifndef XQ_BATCH_H
#define XQ_BATCH_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- packed record
 * A position in XQ_PACKED_SIZE (52) bytes, for storing positions in arrays
 * or files and reading them back without FEN parsing:
 *   bytes  0-44  the 90 piece codes, two per byte: square 2k in the low
 *                nibble of byte k, square 2k+1 in the high nibble
 *                (piece code = color << 3 | type, 0 = empty);
 *   byte   45    side to move: 1 = Red, 0 = Black;
 *   bytes 46-47  halfmove clock, unsigned 16-bit little-endian;
 *   bytes 48-51  fullmove number, unsigned 32-bit little-endian
 *                (1 to XQ_FULLMOVE_MAX, as in a FEN).
 * An all-zero record is never a valid position (it has no kings): batch
 * functions write it for items they could not read. */
#define XQ_PACKED_SIZE 52

/* Writes the packed record of pos.  Returns XQ_OK (XQ_E_ARG on NULL). */
int xq_pos_pack(const xq_pos *pos, uint8_t *out);
/* Reads a packed record.  Returns XQ_OK, or XQ_E_FEN_POSITION when the
   record does not hold a position that xq_pos_set_fen would accept (bad
   piece code, king or piece counts, side byte > 1, fullmove 0 or above
   XQ_FULLMOVE_MAX); the
   position is left unchanged then. */
int xq_pos_unpack(xq_pos *pos, const uint8_t *in);

/* ------------------------------------------------------------- move index
 * Every move that can ever be legal in xiangqi, numbered 0 ..
 * XQ_MOVE_INDEX_NB - 1 in increasing order of move code (from square, then
 * to square): all rank and file moves (1530), horse jumps (508), advisor
 * moves inside each palace (16) and elephant moves inside each half (32). */
#define XQ_MOVE_INDEX_NB 2086

/* The index of move m, or -1 if m can never be legal. */
int xq_move_index(xq_move m);
/* The move with index i, or 0 when i is out of range. */
xq_move xq_move_index_move(int i);
/* The move turned 180 degrees: (89 - from) << 7 | (89 - to).  Moves that are
   not two squares 0-89 are returned unchanged. */
xq_move xq_move_rotate(xq_move m);

/* ------------------------------------------------------------------ input */
enum { XQ_IN_FEN = 0, XQ_IN_PACKED = 1, XQ_IN_POS = 2 };
enum { XQ_VIEW_ABSOLUTE = 0, XQ_VIEW_SIDE_TO_MOVE = 1 };
#define XQ_PLANES_NB 15

typedef struct xq_batch_in {
    int kind;                   /* XQ_IN_FEN, XQ_IN_PACKED or XQ_IN_POS */
    int64_t count;              /* N, the number of items */
    const char *fen_text;       /* FEN: the FENs back to back (not NUL-terminated) */
    const int64_t *fen_offsets; /* FEN: N + 1 offsets; item i is fen_text[off[i], off[i+1]) */
    const uint8_t *packed;      /* PACKED: N records of XQ_PACKED_SIZE bytes */
    const xq_pos *pos;          /* POS: N positions made by this library */
} xq_batch_in;

/* Loads item i into *out.  Returns XQ_OK, the FEN parser's status
   (XQ_E_FEN_SYNTAX, XQ_E_FEN_POSITION), XQ_E_FEN_POSITION for a bad packed
   record, or XQ_E_ARG (bad input, i out of range, decreasing offsets). */
int xq_batch_load(const xq_batch_in *in, int64_t i, xq_pos *out);

/* -------------------------------------------------------------- functions
 * status: int8_t[N] or NULL.  Outputs are indexed by item (see above). */

/* Legal moves, CSR style.  The moves of items begin, begin+1, ... are
   written one after another from moves[0] (at most `cap` entries), and the
   number of moves of item i goes to counts[i].  Returns the number of moves
   written, or XQ_E_BUFFER_SMALL (cap too small: (end - begin) *
   XQ_MAX_MOVES always suffices) / XQ_E_ARG.  Each item's moves come in the
   order xq_gen_legal gives them. */
int64_t xq_batch_legal_moves(const xq_batch_in *in, int64_t begin, int64_t end,
                             xq_move *moves, int64_t cap, int64_t *counts, int8_t *status);
/* Perft node counts (see xq_perft); nodes[i] = 0 for an unreadable item. */
int xq_batch_perft(const xq_batch_in *in, int64_t begin, int64_t end, int depth, int bulk,
                   uint64_t *nodes, int8_t *status);
/* xq_batch_perft that gives up once *stop (if not NULL) is non-zero, as xq_perft_stoppable: another thread
   sets it (an interrupted run).  The counts of a stopped call are partial. */
int xq_batch_perft_stoppable(const xq_batch_in *in, int64_t begin, int64_t end, int depth, int bulk,
                             uint64_t *nodes, int8_t *status, const int *stop);
/* Zobrist keys (as xq_pos_key). */
int xq_batch_zobrist(const xq_batch_in *in, int64_t begin, int64_t end, uint64_t *keys, int8_t *status);
/* Attack maps: maps + i * 180, layout above. */
int xq_batch_attack_maps(const xq_batch_in *in, int64_t begin, int64_t end, uint8_t *maps, int8_t *status);
/* Piece planes: planes + i * XQ_PLANES_NB * 90, layout above. */
int xq_batch_planes(const xq_batch_in *in, int64_t begin, int64_t end, int view, uint8_t *planes,
                    int8_t *status);
/* Legal move masks: mask + i * XQ_MOVE_INDEX_NB, layout above.  An item
   with a legal move outside the move index (a piece on a square it can never
   reach in a game: an advisor off its five points, an elephant off its
   seven) gets an all-zero mask and status XQ_E_FEN_POSITION. */
int xq_batch_legal_mask(const xq_batch_in *in, int64_t begin, int64_t end, int view, uint8_t *mask,
                        int8_t *status);
/* Packed records: packed + i * XQ_PACKED_SIZE (all zero for unreadable items). */
int xq_batch_pack(const xq_batch_in *in, int64_t begin, int64_t end, uint8_t *packed, int8_t *status);
/* FENs: each item's FEN followed by '\n' (just "\n" for an unreadable item),
   one after another from text[0], at most `cap` bytes; no NUL is written.
   Returns the number of bytes written, or XQ_E_BUFFER_SMALL ((end - begin) *
   XQ_FEN_MAX always suffices) / XQ_E_ARG. */
int64_t xq_batch_fens(const xq_batch_in *in, int64_t begin, int64_t end, char *text, int64_t cap,
                      int8_t *status);

#ifdef __cplusplus
}
#endif
#endif /* XQ_BATCH_H */
