/*
 * xq_rules.h - public C API: the per-move facts that repetition rulings
 * need (included by xq.h).
 *
 * A "fact" describes one move of a game: whether it checks (将), whether it
 * threatens mate by checks (杀, computed only on request), and which enemy
 * pieces it newly chases (捉).  The verdict on a loop (who must vary, who
 * loses) is one function, xq_loop_verdict, over each side's summary of its
 * loop moves (xq_repetition_loops); xiangqi.rules words it.
 *
 * Chase (捉).  After the move, put the mover (side S) to move again and list
 * every pair (attacker A of S, victim V of the opponent) such that
 *   - A is an advisor, elephant, horse, cannon or rook (attacks by the king
 *     and by pawns are never chases: both books allow them);
 *   - V is not the king and not a pawn on its own side of the river;
 *   - A can legally capture V (pins and the flying general are respected,
 *     so a confined or pinned attacker does not chase);
 *   - it is not an exchange offer (兑): V is not of A's type able to
 *     capture A back legally;
 *   - the capture wins material: V is worth more than A (a horse or
 *     cannon on a rook; with XQ_FACTS_CXA also an advisor or elephant on a
 *     horse or cannon: the Asian rules' only exception to "an attack on an
 *     unprotected piece" is the rook, so there an advisor or elephant chases
 *     a protected rook but not a protected horse or cannon),
 *     or V is unprotected (no legal recapture on V's square after A takes
 *     V), which covers false protection (假根: every recapture is illegal),
 *     or, with XQ_FACTS_CXA, a static exchange on V's square with legal
 *     moves only gains material (少根: fewer protectors than attackers).
 *     With XQ_FACTS_CXA a capture after which the capturing side is mated
 *     at once is not a chase either, nor an attack by the only root of a
 *     piece the opponent can take first when losing that piece and taking
 *     V is an even exchange (棋例通则 五); and a piece won by a check or a
 *     series of checks from the next move on (术语 三, XQ_CHASE_BY_CHECKS:
 *     up to two checks, every reply) is chased by the moved piece.
 * The move chases V when such a pair exists after the move and the same
 * pair (same attacker piece, followed from its square before the move) did
 * not qualify before it.  That makes discovered chases (the mover uncovers
 * another piece's attack), chases by a king or pawn move that uncovers a
 * piece, and protection subversion (the move pins or blocks V's protector)
 * all chases, while a standing attack is not chased again.  When S was in
 * check before the move, the "before" test ignores S's own king safety, so
 * an evasion does not turn standing attacks into new chases.
 *
 * Identity.  xq_history_facts follows pieces through the analysed plies and
 * gives each chase the square its attacker and victim stood on at the first
 * analysed ply, so a verdict can tell "one piece chased all the time" from
 * "different pieces in turn".
 */
#ifndef XQ_RULES_H
#define XQ_RULES_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Most chase pairs recorded per move (more are counted in n_more). */
#define XQ_MAX_CHASES 24

/* Flags for the facts functions. */
#define XQ_FACTS_CXA 1          /* Chinese rules: 少根 by exchange, no chase that is mated at once */
#define XQ_FACTS_KILL 2         /* compute 杀 (mate threat by checks); needs a small search */
#define XQ_FACTS_CHECK_ONLY 4   /* only move/check/evasion fields; no chase analysis */
/* Depth of the mate-threat search in the mover's moves (1-7) is read from
   bits 8-10 of flags; 0 there means the default, 3 (mate within 3 checks). */
#define XQ_FACTS_KILL_DEPTH(d) (((d) & 7) << 8)
/* CXA #03 三 for xq_repetition_loops: in a game from the opening position
   (xq_history_from_opening), a position due within this many rounds (1-255,
   bits 16-23) is counted among the suspects even when both sides play an
   allowed pattern, since its draw may be Red's loss. */
#define XQ_FACTS_EARLY_ROUNDS(r) (((r) & 255) << 16)

/* Why a pair is a chase. */
#define XQ_CHASE_UNPROTECTED 1  /* 无根: V has no protector at all */
#define XQ_CHASE_FALSE_ROOT 2   /* 假根: V's protectors cannot legally recapture */
#define XQ_CHASE_STRONGER 3     /* V is worth more than A (e.g. horse or cannon on a rook) */
#define XQ_CHASE_SHORT_ROOT 4   /* 少根 (CXA): protected, but the exchange on V's square wins material */
#define XQ_CHASE_BY_CHECKS 5    /* CXA 术语 三: V is won by a check or a series of checks from the next move on
                                   (xq_chase.attacker is then the moved piece) */

/* Bits of xq_facts.flags. */
#define XQ_FACT_ILLEGAL 1       /* the move was not legal in its position (facts are partial) */
#define XQ_FACT_TRUNCATED 2     /* more than XQ_MAX_CHASES pairs; see n_more */
#define XQ_FACT_KILL_BUDGET 4   /* the mate-threat search ran out of nodes (kill may be 0 wrongly) */
#define XQ_FACT_NULL 8          /* a null move (move 0, the turn passed): mover is the passing color << 3
                                   (piece type 0), evasion says whether it was in check; nothing else is set */

typedef struct xq_chase {
    uint8_t attacker;      /* square of the chasing piece after the move */
    uint8_t victim;        /* square of the chased piece */
    uint8_t attacker_id;   /* its square at the first analysed ply (xq_move_facts: before the move) */
    uint8_t victim_id;     /* likewise for the victim */
    uint8_t attacker_piece;/* piece codes */
    uint8_t victim_piece;
    uint8_t reason;        /* XQ_CHASE_* */
    uint8_t protectors;    /* legal recaptures on the victim's square (0 for unprotected/false root) */
} xq_chase;

typedef struct xq_facts {
    xq_move move;
    uint8_t mover;         /* piece code of the moving piece */
    uint8_t captured;      /* piece code captured, 0 if none */
    uint8_t check;         /* the move checks (将) */
    uint8_t kill;          /* the move threatens mate by checks (杀); only with XQ_FACTS_KILL, never with check */
    uint8_t evasion;       /* the mover was in check before the move */
    uint8_t flags;         /* XQ_FACT_* */
    uint8_t n_chases;      /* pairs recorded in chases[] */
    uint8_t n_more;        /* pairs beyond XQ_MAX_CHASES, not recorded */
    xq_chase chases[XQ_MAX_CHASES];
} xq_facts;

/* Facts of one move played from pos.  Returns XQ_OK, XQ_E_ARG (NULL
   pointers) or XQ_E_ILLEGAL_MOVE (the move is not legal here; *out is
   then zeroed except move). */
int xq_move_facts(const xq_pos *pos, xq_move move, int flags, xq_facts *out);

/* Facts of the plies [start, end) of a game.  pos is the position after n
   plies and undos[0..n) the undo records of those plies (as xq_pos_do_move
   fills them), so the function walks back to ply `start` and forward again
   without touching pos.  out[i - start] receives ply i's facts; cap must be
   at least end - start.  Ids are squares at ply `start`.  Returns the count
   written, XQ_E_ARG (bad range, NULL, or undo records that do not fit the
   position) or XQ_E_BUFFER_SMALL.

   Null moves.  An undo record whose move is 0 is a null move (made with
   xq_pos_do_null): every history function walks over it with
   xq_pos_undo_null / xq_pos_do_null.  Its facts are empty (XQ_FACT_NULL:
   no check, no chase, no mate threat), it checks nobody in
   xq_history_checks, and a repetition loop that holds one is judged against
   nobody by xq_repetition_loops (both loop[] summaries 0). */
int xq_history_facts(const xq_pos *pos, const xq_undo *undos, int n, int start, int end, int flags,
                     xq_facts *out, int cap);

/* Repetition counts of every position of a game: out[j] (j = 0..n) is how
   many times the position after j plies has occurred so far (itself
   included), counting only positions since the last capture before it.
   Positions are equal when their Zobrist keys are (side to move included).
   out must hold n + 1 entries.  Returns the highest count, or XQ_E_ARG. */
int xq_repetition_counts(const xq_pos *pos, const xq_undo *undos, int n, uint8_t *out);

/* Earlier plies whose position equals the one after ply `at` (0 <= at <= n),
   latest first, back to the last capture; at most cap are written.  Returns
   how many were found (which may exceed cap), or XQ_E_ARG. */
int xq_repetition_plies(const xq_pos *pos, const xq_undo *undos, int n, int at, int *out, int cap);

/* Repetition loops of a whole game, for bulk rulings (xq_repetition_loops).
   Position j (j = 0..n, after j plies) gets one record; the record also
   describes move j, the move played from that position. */
typedef struct xq_rep_info {
    uint64_t victims[2];   /* identities of the pieces move j chases: bit id of victims[id >> 6]; ids are
                              squares at the earliest loop start of the game (XQ_PLY_ANALYSED moves only) */
    int32_t loop_start;    /* position where the loop ending at position j starts (the earliest of the
                              counted occurrences), or -1 when position j has not reached the count */
    uint8_t count;         /* occurrences of position j so far, itself included (as xq_repetition_counts) */
    uint8_t loop[2];       /* XQ_LOOP_* of each color's moves in that loop, indexed by XQ_BLACK / XQ_RED */
    uint8_t ply;           /* XQ_PLY_* of move j */
    uint8_t chase;         /* XQ_PLYC_* of move j (what its chases are, for CXA 棋例通则 九) */
    uint8_t loop_more[2];  /* XQ_LOOPX_* of each color's moves in the loop ending at position j */
} xq_rep_info;

/* Bits of xq_rep_info.chase: the kinds of chase pairs move j has. */
#define XQ_PLYC_SINGLE_ROOK 1   /* a rook chased by one piece's own attack (not 少根) */
#define XQ_PLYC_SINGLE_OTHER 2  /* another piece chased by one piece's own attack */
#define XQ_PLYC_JOINT_ROOK 4    /* a rook chased jointly (少根: the exchange wins it) */
#define XQ_PLYC_JOINT_OTHER 8   /* another piece chased jointly */

/* Bits of xq_rep_info.loop_more[color] (set only with XQ_LOOP_ALL_ATTACK in loop[color]). */
#define XQ_LOOPX_SINGLE_ROOK 1  /* every move chases a rook by one piece's own attack (长捉车) */
#define XQ_LOOPX_SINGLE_OTHER 2 /* every move chases a non-rook by one piece's own attack (长捉无根子) */
#define XQ_LOOPX_JOINT_ROOK 4   /* every move whose heaviest effect is a chase chases a rook jointly (联合捉车) */
#define XQ_LOOPX_JOINT_OTHER 8  /* ... a non-rook jointly (联合捉无根子) */

/* Bits of xq_rep_info.ply. */
#define XQ_PLY_IN_LOOP 1        /* move j lies inside some loop */
#define XQ_PLY_ANALYSED 2       /* its check and chases were computed (every XQ_PLY_IN_LOOP move) */
#define XQ_PLY_CHECK 4          /* it checks */
#define XQ_PLY_CHASE 8          /* it chases (xq_facts.n_chases > 0) */
#define XQ_PLY_NO_KILL 16       /* no mate threat is computed for it (no XQ_FACTS_KILL, a check, an illegal
                                   move, or a king's evasion under XQ_FACTS_CXA), as in xq_facts.kill */
#define XQ_PLY_KILL_ASKED 32    /* its mate threat was computed (only where a verdict needed it) */
#define XQ_PLY_KILL 64          /* ... and it threatens mate */
#define XQ_PLY_NULL 128         /* move j is a null move (set on XQ_PLY_IN_LOOP moves) */

/* Bits of xq_rep_info.loop[color]: one side's moves in a loop.  KIND_* and
   SAME_VICTIM are set only with ALL_ATTACK.  A side without ALL_ATTACK
   plays at least one idle move, so no rule book forbids its pattern.  Both
   sides' loop[] are 0 (not even XQ_LOOP_MOVES) when a null move lies in the
   loop: a side that passed did not play the repetition, so the loop is
   ruled against neither side. */
#define XQ_LOOP_MOVES 1         /* the side moves in the loop */
#define XQ_LOOP_ALL_CHECK 2     /* every move checks */
#define XQ_LOOP_ALL_CHASE 4     /* every move chases and none checks, and one piece (by identity) is chased
                                   on every move (the Asian perpetual chase) */
#define XQ_LOOP_ALL_ATTACK 8    /* every move checks, chases or (with XQ_FACTS_KILL) threatens mate */
#define XQ_LOOP_KIND_CHECK 16   /* some move's heaviest effect is a check */
#define XQ_LOOP_KIND_KILL 32    /* ... a mate threat */
#define XQ_LOOP_KIND_CHASE 64   /* ... a chase */
#define XQ_LOOP_SAME_VICTIM 128 /* one piece is chased on every move whose heaviest effect is a chase */

/* Every repetition of a game at once: counts, loops and what each side's
   moves in each loop amount to, so that a caller judges a loop without the
   per-move facts, and asks for them (xq_history_facts) only for the loops
   that break a rule.  pos, undos and n as for xq_history_facts; count is
   the occurrences that make a position adjudicable (2-255); flags the
   XQ_FACTS_* of the rule book (as for xq_history_facts).  out must hold
   n + 1 records.  Each move inside a loop is analysed once; mate threats
   only where a verdict depends on them.  Returns how many positions reached
   the count with a side whose every move attacks (XQ_LOOP_ALL_ATTACK), or
   (with XQ_FACTS_EARLY_ROUNDS) within the early rounds of a game from the
   opening position, or
   XQ_E_ARG (bad arguments, or undo records that do not fit the position). */
int xq_repetition_loops(const xq_pos *pos, const xq_undo *undos, int n, int count, int flags, xq_rep_info *out);

/* The verdict on a repetition loop: one function for every caller (Board.outcome, xiangqi.rules.judge,
   bulk validation, the engine's search).  A side's summary is
   loop[color] | loop_more[color] << 8 of xq_rep_info (0 for both sides when a null move lies in the
   loop).  rules is a set of XQ_RULE_* bits. */
#define XQ_RULE_MIXED 1         /* CXA: every move an attack (将, 杀 or 捉, mixed) is forbidden (一将一捉 …);
                                   otherwise (AXF) only all checks or all chases of one piece are */
#define XQ_RULE_SAME_VICTIM 2   /* a chase must chase one and the same piece on every chasing move (AXF) */
#define XQ_RULE_JOINT 4         /* CXA 棋例通则 九 (2)(3): 长捉车 vs 联合捉车, 长捉无根子 vs 联合捉无根子 */
#define XQ_RULE_RED_MUST_VARY 8 /* CXA #03 三: the loop is an early one of a game from the opening position,
                                   counted to its last cycle: a draw is a loss for Red (who must vary) */

/* Patterns of one side (xq_loop_pattern). */
#define XQ_PATTERN_ALLOWED 0
#define XQ_PATTERN_CHECK 1       /* 长将 */
#define XQ_PATTERN_CHASE 2       /* 长捉 */
#define XQ_PATTERN_KILL 3        /* 长杀 */
#define XQ_PATTERN_CHECK_KILL 4  /* 一将一杀 */
#define XQ_PATTERN_CHECK_CHASE 5 /* 一将一捉 */
#define XQ_PATTERN_KILL_CHASE 6  /* 一杀一捉 */
#define XQ_PATTERN_MIXED 7       /* 将, 杀 and 捉 */

/* Why a verdict is what it is (xq_loop_verdict's result >> 2). */
#define XQ_WHY_ALLOWED 0         /* draw: neither side's pattern is forbidden */
#define XQ_WHY_NULL 1            /* draw: a null move lies in the loop */
#define XQ_WHY_MUTUAL_CHECK 2    /* draw: both sides check perpetually */
#define XQ_WHY_CHECK 3           /* loss: perpetual check (outranks everything) */
#define XQ_WHY_BOTH 4            /* draw: both sides forbidden alike */
#define XQ_WHY_JOINT 5           /* loss: 长捉 against the other side's joint chase (XQ_RULE_JOINT) */
#define XQ_WHY_FORBIDDEN 6       /* loss: one side forbidden, the other allowed */
#define XQ_WHY_RED_MUST_VARY 7   /* loss for Red: a draw loop that XQ_RULE_RED_MUST_VARY turns */

/* The pattern (XQ_PATTERN_*) of one side's summary under rules. */
int xq_loop_pattern(int side_summary, int rules);

/* The verdict on a loop from the two sides' summaries: (why << 2) | (2 | loser) when a side loses
   (loser XQ_RED or XQ_BLACK), why << 2 for a draw. */
int xq_loop_verdict(int red_summary, int black_summary, int rules);

/* 1 when the game (position 0 of pos/undos/n) starts from the opening
   position (the standard start, Red to move, move 1), else 0; XQ_E_ARG for
   NULL pointers or a negative n. */
int xq_history_from_opening(const xq_pos *pos, const xq_undo *undos, int n);

/* Checks per side in plies [start, end): counts[c] = checking moves made by
   color c.  Returns XQ_OK or XQ_E_ARG. */
int xq_history_checks(const xq_pos *pos, const xq_undo *undos, int n, int start, int end, int counts[2]);

#ifdef __cplusplus
}
#endif
#endif /* XQ_RULES_H */
