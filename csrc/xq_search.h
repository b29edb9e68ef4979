/* xq_search.h - public C API: a small alpha-beta search (included by xq.h).
 *
 * Principal-variation search (negamax) in iterative deepening with
 * aspiration windows, a quiescence search of captures (those that lose
 * material by static exchange, or cannot reach alpha, skipped) and, at its
 * first ply, of quiet checks that lose nothing by exchange, check
 * extension, null-move pruning (reduction by depth and margin), reverse
 * futility, futility and late-move pruning near the leaves, late-move
 * reductions (~ log depth * log move number), a transposition table keyed
 * by the position's Zobrist key, move ordering (TT move, captures by most
 * valuable victim / least valuable attacker with losing ones last, two
 * killers per ply, history counts with gravity) and an evaluation of
 * material and piece-square tables blended between middle game and
 * endgame by phase, rook/horse/cannon mobility and king safety (missing
 * advisors and elephants against the enemy's attackers).  A side with no
 * legal move loses (checkmate or stalemate).
 *
 * Rulings.  A position that repeats one on the search path or in the game
 * history given to xq_search_begin (since the last capture, not across a
 * null move) closes a loop, judged at once (at its second occurrence) by
 * the library's rulings under the rule book in `rules`: the loop's moves
 * are summed up by xq_repetition_loops (xq_rules.h: checks, chases by
 * identity, and under CXA mate threats), a side whose every move checks
 * loses (both: a draw), else a side whose pattern the book forbids (AXF: a
 * perpetual chase of one piece; CXA: any loop of attacks only) loses, else
 * (both or neither) the loop is a draw.  A loss scores as a mate at that
 * ply.  CXA's joint-chase exceptions (both sides forbidden) are not
 * applied: such loops score as draws.  A position `natural_limit` plies
 * after the last capture is a draw by the natural move limit, counted as
 * xiangqi.rules counts it (each side's checks beyond ten do not count).
 *
 * The caller owns every byte: the xq_search state (about 200 KB) and the
 * transposition table (any number of xq_tt_entry, 16 bytes each).  The
 * caller drives iterative deepening, one xq_search_depth() call per depth,
 * and reads the result fields after each; the table and the move-ordering
 * counts persist between calls, so each depth starts from the last one's
 * principal variation.
 *
 * Limits.  `stop` may be set to non-zero by another thread at any time (it
 * is read atomically); `node_limit` (0 = none) counts nodes since
 * xq_search_begin; `time_limit_ms` (0 = none) is measured on the monotonic
 * clock from xq_search_begin.  Time is looked at every 256 nodes.  A
 * search that hits a limit returns XQ_SEARCH_STOPPED at once; its result
 * fields hold the best root move found so far (never worse than the last
 * complete depth's), and always a legal move when the root has one.
 */
#ifndef XQ_SEARCH_H
#define XQ_SEARCH_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

#define XQ_SEARCH_MAX_PLY 64          /* deepest ply searched (depth limit too) */
#define XQ_SEARCH_HISTORY_MAX 1024    /* game keys kept for repetition tests */
#define XQ_MATE_SCORE 30000           /* mate at the root; mate in n plies = XQ_MATE_SCORE - n */
#define XQ_MATE_BOUND (XQ_MATE_SCORE - XQ_SEARCH_MAX_PLY)  /* |score| above this is a mate score */
#define XQ_SEARCH_STOPPED 1           /* xq_search_depth: a limit or the stop flag ended it early */
#define XQ_SEARCH_NATURAL_LIMIT 120   /* default natural move limit in plies (60 moves) */

typedef struct xq_tt_entry {
    uint64_t key;
    int16_t score;
    xq_move move;
    int8_t depth;
    uint8_t bound;
    uint8_t unused[2];
} xq_tt_entry;

#define XQ_SEARCH_LOOP_CACHE 4096     /* loop verdicts remembered (a power of two) */

typedef struct xq_loop_cache_entry {
    uint64_t key;                /* the loop's last position and moves, hashed; 0 = empty */
    int8_t loser;                /* color that loses the loop, or -1 (a draw) */
} xq_loop_cache_entry;

typedef struct xq_search {
    /* Set by the caller (after xq_search_init, before or between calls). */
    volatile int stop;           /* non-zero: stop as soon as possible */
    uint64_t node_limit;         /* 0 = no limit */
    int64_t time_limit_ms;       /* 0 = no limit; counted from xq_search_begin */
    int facts_flags;             /* XQ_FACTS_* of the rule book: how a loop's moves are read (xq_repetition_loops;
                                    xq_search_init: 0, the Asian rules) */
    int verdict_flags;           /* XQ_RULE_* of the rule book: the verdict on a loop (xq_loop_verdict, the one
                                    verdict of every caller; xq_search_init: XQ_RULE_SAME_VICTIM, the Asian rules) */
    int natural_limit;           /* plies without a capture that draw (xq_search_init: 120; 0 = off) */

    /* Results, valid after each xq_search_depth call. */
    int depth;                   /* the depth last searched (complete or not) */
    int seldepth;                /* deepest ply reached */
    int score;                   /* centipawns from the side to move's view, or a mate score */
    xq_move best;                /* best root move; 0 when the root has no legal move */
    int pv_len;
    xq_move pv[XQ_SEARCH_MAX_PLY];
    uint64_t nodes;              /* nodes since xq_search_begin */

    /* Internal state: treat as opaque. */
    xq_tt_entry *tt;
    uint64_t tt_size;
    xq_pos pos;
    int64_t start_ns;
    int aborted;
    uint32_t ready;              /* XQ_SEARCH_READY after xq_search_begin */
    int n_keys;                  /* game plies in keys[] / undos[] before the root */
    int n_root;
    int root_checks[2];          /* checks by each color in the game since its last capture (natural limit) */
    uint64_t keys[XQ_SEARCH_HISTORY_MAX + XQ_SEARCH_MAX_PLY + 2];
    xq_undo undos[XQ_SEARCH_HISTORY_MAX + XQ_SEARCH_MAX_PLY + 2];  /* the moves from keys[i] to keys[i+1] */
    uint8_t in_check[XQ_SEARCH_MAX_PLY + 2];                         /* per ply of the path */
    int evals[XQ_SEARCH_MAX_PLY + 2];
    xq_loop_cache_entry loop_cache[XQ_SEARCH_LOOP_CACHE];                                /* static evaluation per ply of the path */
    xq_rep_info loops[XQ_SEARCH_HISTORY_MAX + XQ_SEARCH_MAX_PLY + 2]; /* xq_repetition_loops' output */
    xq_move root_moves[XQ_MAX_MOVES];
    xq_move killers[XQ_SEARCH_MAX_PLY][2];
    int rep_floor[XQ_SEARCH_MAX_PLY + 2];   /* per ply: first keys[] index a repetition may match */
    int pv_table_len[XQ_SEARCH_MAX_PLY + 1];
    xq_move pv_table[XQ_SEARCH_MAX_PLY + 1][XQ_SEARCH_MAX_PLY];
    int32_t history[1 << 14];
} xq_search;

/* Zeroes the table (n entries; tt may be NULL when n is 0). */
void xq_tt_clear(xq_tt_entry *tt, uint64_t n);

/* Prepares a search state: no limits, empty ordering counts, the given
   table (NULL/0: search without one).  XQ_OK or XQ_E_ARG. */
int xq_search_init(xq_search *s, xq_tt_entry *tt, uint64_t tt_size);

/* Forgets killers and history counts (a new game; the table is the
   caller's to clear). */
void xq_search_clear(xq_search *s);

/* Sets the root position and starts the clock and the node count.
   `undos[0..n_undos)` are the undo records of the game's moves that led to
   `pos` (as xq_pos_do_move / xq_pos_push fill them, oldest first; only the
   last XQ_SEARCH_HISTORY_MAX are kept): their keys find repetitions and
   their moves let a loop reaching back before the root be judged.  `root_moves[0..n_root)`, if n_root > 0, restricts the root
   to those moves (illegal ones are ignored), for "searchmoves" and UCCI's
   "banmoves".  Does not touch `stop`.  XQ_OK, XQ_E_ARG (NULL pointers,
   negative counts) or XQ_E_FEN_POSITION (a position failing xq_pos_check). */
int xq_search_begin(xq_search *s, const xq_pos *pos, const xq_undo *undos, int n_undos,
                    const xq_move *root_moves, int n_root);

/* Searches the root to `depth` plies (1..XQ_SEARCH_MAX_PLY - 4).  Returns
   XQ_OK when the depth completed, XQ_SEARCH_STOPPED when a limit or `stop`
   cut it short (the result fields hold the best move so far), or XQ_E_ARG
   (bad depth, or no xq_search_begin).  A root without legal moves (or with
   none left by root_moves) completes at once with best = 0 and score =
   -XQ_MATE_SCORE. */
int xq_search_depth(xq_search *s, int depth);

/* Milliseconds since xq_search_begin on the monotonic clock. */
int64_t xq_search_elapsed_ms(const xq_search *s);

/* The static evaluation of a position from the side to move's view. */
int xq_evaluate(const xq_pos *pos);

#ifdef __cplusplus
}
#endif
#endif /* XQ_SEARCH_H */
