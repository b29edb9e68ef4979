/*
 * xq.h - the public C API of the xiangqi core.
 *
 * A self-contained xiangqi (Chinese chess) move generator: 90-square
 * bitboards, legal move generation, make/unmake with Zobrist keys, FEN,
 * perft, attack maps and the per-move facts repetition rulings need.
 *
 * Conventions
 *   square  = rank * 9 + file; a0 = 0 ... i9 = 89; files a-i from Red's left,
 *             ranks 0-9 from Red's back rank (ICCS / UCCI / Pikafish layout).
 *   color   = XQ_BLACK (0) or XQ_RED (1).
 *   piece   = color << 3 | type, type 1..7 (pawn, advisor, elephant, horse,
 *             cannon, rook, king); 0 is an empty square.
 *   move    = from << 7 | to in 16 bits; 0 is "no move".
 *   bitboard arguments cross the API as two uint64_t: [0] = squares 0-63,
 *             [1] = squares 64-89.
 *
 * Memory: the caller owns every object (xq_pos, xq_undo, buffers); the core
 * never allocates.  Threads: call xq_init() once before anything else
 * (it is idempotent but not itself thread-safe); afterwards all functions
 * are reentrant and may run concurrently on distinct positions.
 *
 * Errors: fallible functions return an int; negative values are XQ_E_* codes
 * (xq_status_str() names them).  No function crashes on bad input.
 *
 * Requires a compiler with unsigned __int128 (GCC, Clang) on a 64-bit target.
 */
#ifndef XQ_H
#define XQ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XQ_VERSION "0.1.0"

enum { XQ_BLACK = 0, XQ_RED = 1 };
enum {
    XQ_NO_PIECE_TYPE = 0, XQ_PAWN = 1, XQ_ADVISOR = 2, XQ_ELEPHANT = 3,
    XQ_HORSE = 4, XQ_CANNON = 5, XQ_ROOK = 6, XQ_KING = 7
};
enum { XQ_SQUARE_NB = 90, XQ_FILE_NB = 9, XQ_RANK_NB = 10 };

/* Capacity of a move list for one position (the most moves any position
   with legal material can have is well under this). */
#define XQ_MAX_MOVES 256
/* Buffer size that always holds a FEN written by xq_pos_fen (with NUL). */
#define XQ_FEN_MAX 128
/* king_sq[] of a side without a king (positions read with
   XQ_FEN_ALLOW_NO_KING only).  The attack tables have an all-empty entry
   for it, so check detection and move generation need no branch: a side
   without a king is never in check and every pseudo-legal move is legal. */
#define XQ_SQ_NONE 90
/* Flags of xq_pos_set_fen_flags. */
#define XQ_FEN_ALLOW_NO_KING 1u  /* accept a side without a king (setting up a position) */
/* accept more of a piece type than the set holds (a third horse, a sixth
   pawn; still one king a side at most, and no more pieces than
   XQ_MAX_MOVES moves could come from), for editing a position */
#define XQ_FEN_ALLOW_ANY_COUNT 2u

/* Status codes. */
#define XQ_OK 0
#define XQ_E_FEN_SYNTAX (-1)     /* malformed FEN text: see err_offset */
#define XQ_E_FEN_POSITION (-2)   /* well-formed but unusable: king count, too many pieces */
#define XQ_E_MOVE_FORMAT (-3)    /* square out of range */
#define XQ_E_ILLEGAL_MOVE (-4)   /* empty from-square, wrong side, own piece captured, or not legal */
#define XQ_E_BUFFER_SMALL (-5)   /* caller's buffer too small */
#define XQ_E_ARG (-6)            /* other bad argument (NULL, negative depth, ...) */
#define XQ_E_HASH_MISMATCH (-7)  /* xq_perft_hashed's verification found a table count that differs */

typedef uint16_t xq_move;

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 xq_bb;
#else
#error "xq.h needs unsigned __int128 (GCC or Clang on a 64-bit target)"
#endif

/* The largest fullmove number: the nine digits FEN readers take.  Every
   position the API makes keeps 1 <= fullmove <= XQ_FULLMOVE_MAX (moves
   past it leave it there, as the halfmove clock stops at 65535), so its FEN
   and its packed record can always be read back; a packed record beyond it
   is rejected like any other bad record. */
#define XQ_FULLMOVE_MAX 999999999u

/* A position.  Treat the fields as read-only; change it through the API. */
typedef struct xq_pos {
    xq_bb by_color[2];     /* pieces of each color */
    xq_bb by_type[8];      /* pieces of each type, both colors; [0] unused */
    xq_bb occ_rot;         /* occupancy, file-major: bit file*10 + rank */
    uint64_t key;          /* Zobrist key, side to move included */
    uint32_t fullmove;     /* FEN fullmove number */
    uint16_t halfmove;     /* plies since the last capture */
    uint8_t side;          /* side to move: XQ_RED or XQ_BLACK */
    uint8_t king_sq[2];    /* king square by color, XQ_SQ_NONE if it has none */
    uint8_t board[90];     /* piece code per square, 0 = empty */
} xq_pos;

/* Undo record: filled by xq_pos_do_move, consumed by xq_pos_undo_move. */
typedef struct xq_undo {
    uint64_t key;
    uint32_t fullmove;
    uint16_t halfmove;
    xq_move move;
    uint8_t captured;      /* piece code captured, 0 if none */
} xq_undo;

/* Setup. */
void xq_init(void);
const char *xq_version(void);
const char *xq_status_str(int status);

/* FEN.  `fen` need not be NUL-terminated; at most `len` bytes are read.
   On XQ_E_FEN_SYNTAX, *err_offset (if not NULL) is the byte offset of the
   first bad character.  Returns XQ_OK or a negative status; on failure the
   position is left unchanged. */
int xq_pos_set_fen(xq_pos *pos, const char *fen, size_t len, size_t *err_offset);
/* xq_pos_set_fen with flags: XQ_FEN_ALLOW_NO_KING also accepts a side with
   no king (at most one each still), for setting up a position piece by
   piece; XQ_FEN_ALLOW_ANY_COUNT accepts more pieces of a type than the set
   holds.  Such a position is safe for the position, move generation,
   attack and perft functions and for the per-move facts (xq_rules.h) but
   fails xq_pos_check, so the batch, replay and search functions, which
   need both kings and the set's pieces, keep refusing it
   (XQ_E_FEN_POSITION).  Moves never
   capture a king, so play keeps the kings a position has. */
int xq_pos_set_fen_flags(xq_pos *pos, const char *fen, size_t len, size_t *err_offset, unsigned flags);
/* Writes the FEN (NUL-terminated) into buf; returns its length or
   XQ_E_BUFFER_SMALL.  XQ_FEN_MAX bytes always suffice. */
int xq_pos_fen(const xq_pos *pos, char *buf, size_t cap);
void xq_pos_copy(xq_pos *dst, const xq_pos *src);
/* Full consistency check of a position built or changed outside the API:
   side 0/1, 1 <= fullmove <= XQ_FULLMOVE_MAX, the piece counts set_fen enforces (one king a
   side, at most 5 pawns and 2 of each other type), and every derived field
   (bitboards, king squares, file-major occupancy, key) equal to what
   board[] implies.  XQ_OK, XQ_E_FEN_POSITION or XQ_E_ARG.  A position that
   passes is safe for every function; positions from set_fen, unpack and
   make/unmake always pass (a position read by set_fen_flags without a king
   fails: it is not safe for the functions that need both kings). */
int xq_pos_check(const xq_pos *pos);

/* Make/unmake.  do_move checks only what memory safety needs (squares in
   range, a piece of the side to move on `from`, no own piece or king on
   `to`); full legality is xq_pos_is_legal's job.  undo_move refuses
   (XQ_E_ARG, position untouched) a record that cannot be the last move
   made; undo the moves in reverse order. */
int xq_pos_do_move(xq_pos *pos, xq_move move, xq_undo *undo);
int xq_pos_undo_move(xq_pos *pos, const xq_undo *undo);
/* Plays moves[0..n) in order, writing undo records to undos[0..n), and
   stops at the first move do_move refuses (or, with check_legal, that is
   not legal).  Returns the number of moves played, or XQ_E_ARG. */
int xq_pos_play_codes(xq_pos *pos, const xq_move *moves, int n, xq_undo *undos, int check_legal);
/* Move-stack forms: push plays `move` (0 = the null move) recording undos[i];
   pop takes back the move recorded in undos[i], refusing (XQ_E_ARG, position
   untouched) a record whose move is not `move`: the caller's stack and the
   records disagree.  The caller keeps i below the size of `undos`. */
int xq_pos_push(xq_pos *pos, xq_move move, xq_undo *undos, int i);
int xq_pos_pop(xq_pos *pos, xq_move move, const xq_undo *undos, int i);
/* Passes the turn (for analysis); undo with xq_pos_undo_null. */
void xq_pos_do_null(xq_pos *pos, xq_undo *undo);
void xq_pos_undo_null(xq_pos *pos, const xq_undo *undo);

/* Keys. */
uint64_t xq_pos_key(const xq_pos *pos);
uint64_t xq_pos_key_recompute(const xq_pos *pos);

/* Move generation.  Returns the number of moves written (<= cap) or
   XQ_E_BUFFER_SMALL; XQ_MAX_MOVES always suffices. */
int xq_gen_legal(const xq_pos *pos, xq_move *out, int cap);
int xq_gen_pseudo_legal(const xq_pos *pos, xq_move *out, int cap);
int xq_count_legal(const xq_pos *pos);
/* 1 if legal, 0 if not (any move value is accepted). */
int xq_pos_is_legal(const xq_pos *pos, xq_move move);
int xq_pos_is_pseudo_legal(const xq_pos *pos, xq_move move);
int xq_gives_check(const xq_pos *pos, xq_move move);

/* Checks and attacks.  Bitboards are written as two uint64_t. */
int xq_pos_in_check(const xq_pos *pos);
void xq_pos_checkers(const xq_pos *pos, uint64_t out[2]);
/* The squares of the pieces of one color and type (empty for bad arguments). */
void xq_pos_pieces(const xq_pos *pos, int color, int type, uint64_t out[2]);
/* Pieces of `color` that attack `sq` (could capture a piece standing there,
   ignoring pins; a king also attacks the enemy king along an open file). */
void xq_attackers_to(const xq_pos *pos, int sq, int color, uint64_t out[2]);
/* For each square, how many pieces of `color` attack it. */
void xq_attack_counts(const xq_pos *pos, int color, uint8_t out[90]);

/* Perft.  bulk != 0 counts the legal moves at the last ply without making
   them.  Returns the node count (0 for depth < 0). */
uint64_t xq_perft(const xq_pos *pos, int depth, int bulk);
/* xq_perft that gives up, returning a partial count, once *stop (if not NULL)
   is non-zero: another thread sets it (an interrupted command line run). */
uint64_t xq_perft_stoppable(const xq_pos *pos, int depth, int bulk, const int *stop);
/* Divide: the legal root moves and the node count below each; returns the
   number of root moves or XQ_E_BUFFER_SMALL / XQ_E_ARG. */
int xq_perft_divide(const xq_pos *pos, int depth, int bulk, xq_move *moves, uint64_t *counts, int cap);
/* Hashed perft (bulk-counted): the count of every subtree of depth >= 2 is
   kept in a transposition table keyed by the position's full 64-bit Zobrist
   key and the depth, so a position reached again is not counted again.  The
   caller provides the table: table_bytes (at least XQ_PERFT_HASH_BUCKET) of
   8-byte aligned memory, zeroed before its first use; it may be kept for later
   calls (any positions, any depths) and shared by threads running at once (its
   entries are written without locks; a torn entry is a miss).  verify_every
   = N > 0 recounts one hit in N without the table and returns
   XQ_E_HASH_MISMATCH if one differs (0: trust the table).  stop as in
   xq_perft_stoppable (a stopped call stores nothing partial).  Writes the
   count to *nodes; returns XQ_OK, XQ_E_ARG (NULL, depth outside 0-255, a
   table too small or misaligned) or XQ_E_HASH_MISMATCH. */
#define XQ_PERFT_HASH_BUCKET 32
int xq_perft_hashed(const xq_pos *pos, int depth, void *table, size_t table_bytes, uint32_t verify_every,
                    const int *stop, uint64_t *nodes);

#ifdef __cplusplus
}
#endif

/* The rest of the public API lives in its own headers, one per subject. */
#include "xq_rules.h"   /* per-move facts for repetition rulings */
#include "xq_batch.h"   /* array-in / array-out loops over many positions */
#include "xq_replay.h"  /* replaying a game's move text */
#include "xq_search.h"  /* alpha-beta search and evaluation */
#include "xq_scan.h"    /* where games begin in PGN text */

#endif /* XQ_H */
