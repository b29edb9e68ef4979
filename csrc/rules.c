/*
 * rules.c - per-move facts for repetition rulings: check (将), chase (捉)
 * with the distinctions of the AXF and CXA rule books, mate threat (杀),
 * repetition counting over a game's undo records, and the one verdict on a
 * loop (xq_loop_verdict).  See xq_rules.h for the definitions.
 *
 * Nothing here allocates; positions are copied on the stack (an xq_pos is
 * a few hundred bytes).  Nothing here runs during push/pop: the facts are
 * computed only when a caller asks (a repetition was found, or a user
 * wants the reasoning).
 */
#include "xq_internal.h"

/* Piece values for "the victim is worth more than the attacker" and for the
   static exchange (CXA 25.3: a rook is worth two horses or two cannons,
   horse = cannon, advisor = elephant; a crossed pawn floats, taken here as
   an advisor; an uncrossed pawn is not material). */
static const int VALUE[8] = {0, 2, 2, 2, 4, 4, 8, 100};

/* Squares of each side's own half (where its pawns have not crossed). */
static xq_bb own_half(int color) {
    xq_bb red_half = ((xq_bb)1 << 45) - 1; /* ranks 0-4 */
    return color == XQ_RED ? red_half : (~red_half & ((((xq_bb)1) << 90) - 1));
}

static int piece_value(int pc, int sq) {
    int t = pc & 7;
    if (t == XQ_PAWN && bb_test(own_half(pc >> 3), sq)) return 1;
    return VALUE[t];
}

static int in_check_side(const xq_pos *p, int color) {
    return attacked_by(p, p->king_sq[color], color ^ 1, p->by_color[color ^ 1], pos_occ(p), p->occ_rot);
}

/* ---------------------------------------------------------------- exchange */

/* Gain for the side to move from capturing on sq and continuing the
   exchange with its least valuable legal capturer each time; either side
   may stop (so the result is >= 0). */
static int see_rec(const xq_pos *p, int sq, int depth) {
    if (depth >= 16) return 0;
    int us = p->side;
    xq_bb att = attackers_bb(p, sq, us, pos_occ(p), p->occ_rot);
    int best = -1, best_v = 1 << 20;
    while (att) {
        int s = bb_pop_lsb(&att);
        int v = piece_value(p->board[s], s);
        if (v < best_v && xq_pos_is_legal(p, make_move(s, sq))) {
            best = s;
            best_v = v;
        }
    }
    if (best < 0) return 0;
    int gain = piece_value(p->board[sq], sq);
    xq_pos q = *p;
    xq_undo u;
    pos_do_move_fast(&q, make_move(best, sq), &u);
    int g = gain - see_rec(&q, sq, depth + 1);
    return g > 0 ? g : 0;
}

/* Does the side to move have a move that mates the other side at once? */
static int can_mate_in_one(const xq_pos *p) {
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_legal(p, moves, XQ_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        xq_pos q = *p;
        xq_undo u;
        pos_do_move_fast(&q, moves[i], &u);
        if (xq_pos_in_check(&q) && xq_count_legal(&q) == 0) return 1;
    }
    return 0;
}

/* ------------------------------------------------- winning by checks */

/* Depth and node budget of the search for material won by checks (CXA 术语 三): the mover's checking
   moves before the capture, and the positions visited per search. */
#define CHECK_WIN_DEPTH 2
#define CHECK_WIN_BUDGET 20000L

/* The pieces among `targets` (squares of the side not to move) that the side to move can take at once with
   a gain (the exchange on the square, legal moves only, wins material) without being mated at once. */
static xq_bb gains_now(const xq_pos *p, xq_bb targets) {
    xq_bb out = 0, occ = pos_occ(p);
    int them = p->side ^ 1;
    while (targets) {
        int v = bb_pop_lsb(&targets);
        int pv = p->board[v];
        if (!pv || (pv >> 3) != them || (pv & 7) == XQ_KING) continue;
        xq_bb att = attackers_bb(p, v, p->side, occ, p->occ_rot);
        while (att) {
            int a = bb_pop_lsb(&att);
            xq_move m = make_move(a, v);
            if (!xq_pos_is_legal(p, m)) continue;
            xq_pos r = *p;
            xq_undo u;
            pos_do_move_fast(&r, m, &u);
            if (piece_value(pv, v) - see_rec(&r, v, 0) > 0 && !can_mate_in_one(&r)) {
                out |= SQ_BB[v];
                break;
            }
        }
    }
    return out;
}

/* The pieces among `targets` that the side to move wins by a check or a series of checks (CXA 术语 三:
   "从下一着开始运用将军或连续将军得子"): a checking move after which, whatever the reply, it takes the
   piece with a gain (gains_now) or, within `depth` checks, checks again and wins it so.  A check that mates
   wins no material (that is 杀), and a check that takes the piece itself is a direct capture (the chase
   pairs' business). */
static xq_bb won_by_checks(const xq_pos *p, xq_bb targets, int depth, long *budget) {
    xq_move moves[XQ_MAX_MOVES], replies[XQ_MAX_MOVES];
    xq_bb won = 0;
    int n = xq_gen_legal(p, moves, XQ_MAX_MOVES);
    for (int i = 0; i < n && (targets & ~won); i++) {
        if (--*budget < 0) return 0;
        xq_pos q = *p;
        xq_undo u;
        pos_do_move_fast(&q, moves[i], &u);
        if (!xq_pos_in_check(&q)) continue;
        int k = xq_gen_legal(&q, replies, XQ_MAX_MOVES);
        xq_bb all = targets & ~won & ~SQ_BB[move_to(moves[i])];
        if (!k) continue;
        for (int j = 0; j < k && all; j++) {
            xq_pos r = q;
            xq_undo ur;
            pos_do_move_fast(&r, replies[j], &ur);
            xq_bb got = gains_now(&r, all);
            if (depth > 1 && (all & ~got)) got |= won_by_checks(&r, all & ~got, depth - 1, budget);
            all &= got;
        }
        if (*budget < 0) return 0;
        won |= all;
    }
    return won;
}

/* --------------------------------------------------------------- chases */

/* The pieces among `from` whose way to v leads over square a (a line through
   a, a horse leg or elephant eye on a).  The Asian rules judge protection
   on the board as it stands, so a recapture that only becomes possible
   because the attacker left a (an x-ray through the attacker) does not
   protect there (AXF diagrams 39-41 and 61); the Chinese rules count such
   hidden protection (暗根). */
static xq_bb through_square(const xq_pos *p, xq_bb from, int v, int a) {
    xq_bb out = 0;
    while (from) {
        int s = bb_pop_lsb(&from);
        switch (p->board[s] & 7) {
        case XQ_ROOK: case XQ_CANNON: case XQ_KING:
            if (bb_test(BETWEEN[s][v], a)) out |= SQ_BB[s];
            break;
        case XQ_HORSE:
            if (HORSE_LEG_BETWEEN[s][v] == a) out |= SQ_BB[s];
            break;
        case XQ_ELEPHANT:
            if ((s + v) / 2 == a) out |= SQ_BB[s];
            break;
        default:
            break;
        }
    }
    return out;
}

/* CXA 棋例通则 五: "做根子捉子时，若先丢被保护子，后吃对方子，双方等值交换则为闲".  Does the attacker on a
   (p: its side S to move, a can take v) protect a piece P of S that the opponent can take first, P's only
   root being a, such that losing P and then taking v wins no more than P is worth (an even exchange, or a
   losing one)?  Decided by a static exchange on both squares: the opponent's least valuable legal capture
   of P, then a's capture of v and the exchange on v. */
static int root_gives_way(const xq_pos *p, int a, int v) {
    int S = p->side, O = S ^ 1;
    xq_pos o = *p;
    o.side = (uint8_t)O;
    xq_bb occ = pos_occ(&o), mine = p->by_color[S] & ~p->by_type[XQ_KING] & ~SQ_BB[a];
    while (mine) {
        int P = bb_pop_lsb(&mine);
        xq_bb att = attackers_bb(&o, P, O, occ, o.occ_rot), cheapest = 0;
        int xv = 1 << 20;
        while (att) {
            int s = bb_pop_lsb(&att);
            int val = piece_value(o.board[s], s);
            if (val > xv || !xq_pos_is_legal(&o, make_move(s, P))) continue;
            if (val < xv) cheapest = 0;
            cheapest |= SQ_BB[s];
            xv = val;
        }
        /* Every least valuable capture is tried, not the first found: which of two equal capturers takes P
           decides whether a second root remains (a cannon's screen moves or stays), and the verdict must not
           hang on the order of the squares (a position and its colour-swapped mirror judged alike). */
        while (cheapest) {
            int x = bb_pop_lsb(&cheapest);
            xq_pos t = o;
            xq_undo u;
            pos_do_move_fast(&t, make_move(x, P), &u);
            /* t: S to move, P taken (not by the victim itself).  a must be P's root, and its only one. */
            if (t.board[v] != p->board[v] || !xq_pos_is_legal(&t, make_move(a, P)) ||
                !xq_pos_is_legal(&t, make_move(a, v)))
                continue;
            xq_bb roots = attackers_bb(&t, P, S, pos_occ(&t), t.occ_rot) & ~SQ_BB[a];
            int other = 0;
            while (roots && !other) {
                int s = bb_pop_lsb(&roots);
                other = xq_pos_is_legal(&t, make_move(s, P));
            }
            if (other) continue;
            int lost = piece_value(p->board[P], P);
            xq_pos w = t;
            pos_do_move_fast(&w, make_move(a, v), &u);
            if (piece_value(t.board[v], v) - see_rec(&w, v, 0) <= lost) return 1;
        }
    }
    return 0;
}

/* Is (attacker on a, victim on v) a chase pair in p, whose side to move owns
   the attacker?  Returns an XQ_CHASE_* reason or 0.  With `relax` the
   attacker's own king safety is ignored (used for the position before an
   evasion).  *nprot receives the number of legal recaptures. */
static int pair_status(const xq_pos *p, int a, int v, int flags, int relax, int relax_mate, uint8_t *nprot) {
    int pa = p->board[a], pv = p->board[v];
    xq_move cap = make_move(a, v);
    *nprot = 0;
    if (relax ? !xq_pos_is_pseudo_legal(p, cap) : !xq_pos_is_legal(p, cap)) return 0;
    if ((pa & 7) == (pv & 7)) {
        /* 兑: the victim can take the attacker first. */
        xq_pos q = *p;
        q.side ^= 1;
        if (xq_pos_is_legal(&q, make_move(v, a))) return 0;
    }
    xq_pos r = *p;
    xq_undo u;
    pos_do_move_fast(&r, cap, &u);
    /* r: the victim's side to move, the attacker standing on v. */
    xq_bb geo = attackers_bb(&r, v, r.side, pos_occ(&r), r.occ_rot);
    if (!(flags & XQ_FACTS_CXA)) geo &= ~through_square(&r, geo, v, a);
    int legal = 0;
    xq_bb g = geo;
    while (g) {
        int s = bb_pop_lsb(&g);
        if (xq_pos_is_legal(&r, make_move(s, v))) legal++;
    }
    *nprot = (uint8_t)(legal > 255 ? 255 : legal);
    int reason = 0;
    /* Worth more than the attacker: under the Chinese rules any stronger victim is material won (棋例通则 六,
       "一个或数个弱子换任一强子均为得子"); the Asian rules make an exception to "a chase is an attack on an
       unprotected piece" for the rook alone (rule 15 and diagrams 42-47: a cannon or a horse may not chase a rook,
       protected or not; rule 17: a rook may chase a protected cannon). */
    if (piece_value(pv, v) > piece_value(pa, a) && ((flags & XQ_FACTS_CXA) || (pv & 7) == XQ_ROOK))
        reason = XQ_CHASE_STRONGER;
    else if (!legal) reason = geo ? XQ_CHASE_FALSE_ROOT : XQ_CHASE_UNPROTECTED;
    else if ((flags & XQ_FACTS_CXA) && piece_value(pv, v) - see_rec(&r, v, 0) > 0) reason = XQ_CHASE_SHORT_ROOT;
    /* CXA 29.4: no chase when the capture is answered by mate.  Only judged
       after the move: a standing attack does not become new because the
       danger of mate went away (从捉到捉 is idle). */
    if (reason && (flags & XQ_FACTS_CXA) && !relax_mate && can_mate_in_one(&r)) reason = 0;
    /* CXA 棋例通则 五: a root that would give its protected piece away for an even exchange does not chase. */
    if (reason && (flags & XQ_FACTS_CXA) && !relax && root_gives_way(p, a, v)) reason = 0;
    return reason;
}

/* Candidate victims of `color`'s enemy: not the king, not an uncrossed pawn. */
static xq_bb victim_mask(const xq_pos *p, int enemy) {
    xq_bb e = p->by_color[enemy] & ~p->by_type[XQ_KING];
    return e & ~(p->by_type[XQ_PAWN] & own_half(enemy));
}

static xq_bb chaser_mask(const xq_pos *p, int color) {
    return p->by_color[color] & (p->by_type[XQ_ADVISOR] | p->by_type[XQ_ELEPHANT] | p->by_type[XQ_HORSE] |
                                 p->by_type[XQ_CANNON] | p->by_type[XQ_ROOK]);
}

/* CXA 术语 三: the pieces the move newly lets its side win by checks (q: the position after the move with
   the mover to move again), recorded with the moved piece as the attacker. */
static void by_checks(const xq_pos *before, xq_move m, const xq_pos *q, const uint8_t *ids, xq_facts *f) {
    int from = move_from(m), to = move_to(m), S = before->side;
    xq_bb targets = victim_mask(q, S ^ 1);
    for (int k = 0; k < f->n_chases; k++) targets &= ~SQ_BB[f->chases[k].victim];
    /* A piece that can be taken with a gain at once is a direct attack (new or standing), not won by checks. */
    if (targets) targets &= ~gains_now(q, targets);
    if (!targets) return;
    long budget = CHECK_WIN_BUDGET;
    xq_bb won = won_by_checks(q, targets, CHECK_WIN_DEPTH, &budget);
    if (!won) return;
    /* New: not already winnable so before the move (从捉到捉 is idle). */
    xq_bb same = 0, w = won;
    while (w) {
        int v = bb_pop_lsb(&w);
        if (before->board[v] == q->board[v]) same |= SQ_BB[v];
    }
    if (same && !in_check_side(before, S)) {
        long b0 = CHECK_WIN_BUDGET;
        won &= ~won_by_checks(before, same, CHECK_WIN_DEPTH, &b0);
    }
    while (won) {
        int v = bb_pop_lsb(&won);
        if (f->n_chases >= XQ_MAX_CHASES) {
            if (f->n_more < 255) f->n_more++;
            f->flags |= XQ_FACT_TRUNCATED;
            continue;
        }
        xq_chase *c = &f->chases[f->n_chases++];
        c->attacker = (uint8_t)to;
        c->victim = (uint8_t)v;
        c->attacker_id = ids ? ids[from] : (uint8_t)from;
        c->victim_id = ids ? ids[v] : (uint8_t)v;
        c->attacker_piece = q->board[to];
        c->victim_piece = q->board[v];
        c->reason = XQ_CHASE_BY_CHECKS;
        c->protectors = 0;
    }
}

/* The chases of move m played from `before` (legal, S to move) reaching
   `after`.  ids (may be NULL) maps squares before the move to identities. */
static void find_chases(const xq_pos *before, xq_move m, const xq_pos *after, int flags,
                        const uint8_t *ids, xq_facts *f) {
    int from = move_from(m), to = move_to(m);
    int S = before->side, O = S ^ 1;
    xq_pos q = *after;
    q.side = (uint8_t)S; /* the mover to move again (a null move by the opponent) */
    int relax = in_check_side(before, S);
    xq_bb occ = pos_occ(&q), rot = q.occ_rot;
    xq_bb occ0 = pos_occ(before), rot0 = before->occ_rot;
    xq_bb victims = victim_mask(&q, O);
    xq_bb chasers = chaser_mask(&q, S);
    while (chasers) {
        int a = bb_pop_lsb(&chasers);
        xq_bb t = piece_att(&q, a, occ, rot) & victims;
        while (t) {
            int v = bb_pop_lsb(&t);
            uint8_t np;
            int reason = pair_status(&q, a, v, flags, 0, 0, &np);
            if (!reason) continue;
            int a0 = a == to ? from : a;
            if (before->board[a0] == q.board[a] && before->board[v] == q.board[v] &&
                bb_test(piece_att(before, a0, occ0, rot0), v)) {
                uint8_t np0;
                if (pair_status(before, a0, v, flags, relax, 1, &np0)) continue; /* a standing chase */
            }
            if (f->n_chases >= XQ_MAX_CHASES) {
                if (f->n_more < 255) f->n_more++;
                f->flags |= XQ_FACT_TRUNCATED;
                continue;
            }
            xq_chase *c = &f->chases[f->n_chases++];
            c->attacker = (uint8_t)a;
            c->victim = (uint8_t)v;
            c->attacker_id = ids ? ids[a0] : (uint8_t)a0;
            c->victim_id = ids ? ids[v] : (uint8_t)v;
            c->attacker_piece = q.board[a];
            c->victim_piece = q.board[v];
            c->reason = (uint8_t)reason;
            c->protectors = np;
        }
    }
    /* A move that checks is judged as a check (its heaviest effect): what its checks go on to win is part of
       it, so the search runs for quiet moves only. */
    if ((flags & XQ_FACTS_CXA) && !in_check_side(after, O)) by_checks(before, m, &q, ids, f);
}

/* ---------------------------------------------------------- mate threats */

/* Can the side to move mate with checking moves only, within `depth` of its
   moves, whatever the defender replies? */
static int mate_by_checks(const xq_pos *p, int depth, long *budget) {
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_legal(p, moves, XQ_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        if (--*budget < 0) return 0;
        xq_pos q = *p;
        xq_undo u;
        pos_do_move_fast(&q, moves[i], &u);
        if (!xq_pos_in_check(&q)) continue;
        xq_move replies[XQ_MAX_MOVES];
        int k = xq_gen_legal(&q, replies, XQ_MAX_MOVES);
        if (k == 0) return 1;
        if (depth <= 1) continue;
        int all = 1;
        for (int j = 0; j < k && all; j++) {
            xq_pos r = q;
            xq_undo ur;
            pos_do_move_fast(&r, replies[j], &ur);
            if (!mate_by_checks(&r, depth - 1, budget)) all = 0;
        }
        if (all && *budget >= 0) return 1;
    }
    return 0;
}

#define KILL_BUDGET 200000L

/* ------------------------------------------------------------ one move */

/* 杀: can the side that just moved (reaching `after`) mate by checks if it
   moved again?  Sets XQ_FACT_KILL_BUDGET in *fflags when the search ran out. */
static int kill_after(const xq_pos *after, int flags, uint8_t *fflags) {
    int depth = (flags >> 8) & 7;
    if (!depth) depth = 3;
    xq_pos q = *after;
    q.side ^= 1;
    q.key ^= ZOBRIST_SIDE;
    long budget = KILL_BUDGET;
    int kill = mate_by_checks(&q, depth, &budget);
    if (budget < 0) *fflags |= XQ_FACT_KILL_BUDGET;
    return kill;
}

static void facts_at(const xq_pos *p, xq_move m, int flags, const uint8_t *ids, xq_facts *f) {
    memset(f, 0, sizeof *f);
    f->move = m;
    int from = move_from(m), to = move_to(m);
    f->mover = p->board[from];
    f->captured = p->board[to];
    f->evasion = (uint8_t)in_check_side(p, p->side);
    xq_pos after = *p;
    xq_undo u;
    pos_do_move_fast(&after, m, &u);
    f->check = (uint8_t)xq_pos_in_check(&after);
    if (!xq_pos_is_legal(p, m)) {
        f->flags |= XQ_FACT_ILLEGAL;
        return;
    }
    if (flags & XQ_FACTS_CHECK_ONLY) return;
    int king_evasion = (f->mover & 7) == XQ_KING && f->evasion;
    /* CXA 棋例通则 1(2): what a king's evasion creates is idle. */
    if (!((flags & XQ_FACTS_CXA) && king_evasion)) find_chases(p, m, &after, flags, ids, f);
    if ((flags & XQ_FACTS_KILL) && !f->check && !((flags & XQ_FACTS_CXA) && king_evasion))
        f->kill = (uint8_t)kill_after(&after, flags, &f->flags);
}

int xq_move_facts(const xq_pos *pos, xq_move move, int flags, xq_facts *out) {
    if (!pos || !out) return XQ_E_ARG;
    if (!xq_pos_is_legal(pos, move)) {
        memset(out, 0, sizeof *out);
        out->move = move;
        return XQ_E_ILLEGAL_MOVE;
    }
    facts_at(pos, move, flags, NULL, out);
    return XQ_OK;
}

/* --------------------------------------------------------- game history */

/* A null move (move 0, xq_pos_do_null: the turn passes) is a ply like any
   other in a game's undo records: these step a position over one record in
   either direction. */
static inline void step_forward(xq_pos *q, xq_move m, xq_undo *u) {
    if (m) pos_do_move_fast(q, m, u);
    else xq_pos_do_null(q, u);
}

static inline void step_back(xq_pos *q, const xq_undo *u) {
    if (u->move) pos_undo_move_fast(q, u);
    else xq_pos_undo_null(q, u);
}

/* Facts of a null move: nothing but the passing side (mover = its color
   << 3, piece type 0) and whether it was in check. */
static void null_facts(const xq_pos *p, xq_facts *f) {
    memset(f, 0, sizeof *f);
    f->mover = (uint8_t)(p->side << 3);
    f->evasion = (uint8_t)in_check_side(p, p->side);
    f->flags = XQ_FACT_NULL;
}

/* Walks pos back to ply `start` using undos[start..n); checks that every
   record fits the position so a bad record cannot corrupt memory. */
static int rewind_to(xq_pos *q, const xq_undo *undos, int n, int start) {
    for (int i = n - 1; i >= start; i--) {
        const xq_undo *u = &undos[i];
        if (u->move == 0) {
            if (u->captured) return XQ_E_ARG;
            xq_pos_undo_null(q, u);
            continue;
        }
        int from = move_from(u->move), to = move_to(u->move);
        if (u->move >> 14 || from >= 90 || to >= 90 || from == to) return XQ_E_ARG;
        int pc = q->board[to], mover = q->side ^ 1;
        if (!pc || (pc >> 3) != mover || q->board[from]) return XQ_E_ARG;
        int cap = u->captured;
        if (cap && ((cap >> 3) != q->side || (cap & 7) < 1 || (cap & 7) > 6 || (cap & ~15))) return XQ_E_ARG;
        pos_undo_move_fast(q, u);
    }
    return XQ_OK;
}

static int history_args_ok(const xq_pos *pos, const xq_undo *undos, int n, int start, int end) {
    if (!pos || n < 0 || (n > 0 && !undos)) return 0;
    if (start < 0 || start > end || end > n) return 0;
    return 1;
}

int xq_history_facts(const xq_pos *pos, const xq_undo *undos, int n, int start, int end, int flags,
                     xq_facts *out, int cap) {
    if (!history_args_ok(pos, undos, n, start, end) || (!out && end > start)) return XQ_E_ARG;
    if (cap < end - start) return XQ_E_BUFFER_SMALL;
    xq_pos q = *pos;
    if (rewind_to(&q, undos, n, start) != XQ_OK) return XQ_E_ARG;
    uint8_t ids[90];
    for (int s = 0; s < 90; s++) ids[s] = q.board[s] ? (uint8_t)s : NO_SQ;
    for (int i = start; i < end; i++) {
        xq_move m = undos[i].move;
        xq_undo u;
        if (!m) {
            null_facts(&q, &out[i - start]);
            xq_pos_do_null(&q, &u);
            continue;
        }
        facts_at(&q, m, flags, ids, &out[i - start]);
        int from = move_from(m), to = move_to(m);
        pos_do_move_fast(&q, m, &u);
        ids[to] = ids[from];
        ids[from] = NO_SQ;
    }
    return end - start;
}

int xq_history_checks(const xq_pos *pos, const xq_undo *undos, int n, int start, int end, int counts[2]) {
    if (!history_args_ok(pos, undos, n, start, end) || !counts) return XQ_E_ARG;
    counts[0] = counts[1] = 0;
    xq_pos q = *pos;
    if (rewind_to(&q, undos, n, start) != XQ_OK) return XQ_E_ARG;
    for (int i = start; i < end; i++) {
        int mover = q.side;
        xq_undo u;
        xq_move m = undos[i].move;
        step_forward(&q, m, &u);
        if (m && xq_pos_in_check(&q)) counts[mover]++; /* a null move checks nobody */
    }
    return XQ_OK;
}

/* ----------------------------------------------------------- repetition */

static inline uint64_t key_at(const xq_pos *pos, const xq_undo *undos, int n, int j) {
    return j < n ? undos[j].key : pos->key;
}

static int count_back(const xq_pos *pos, const xq_undo *undos, int n, int j, int *out, int cap) {
    uint64_t k = key_at(pos, undos, n, j);
    int found = 0;
    for (int i = j - 1; i >= 0; i--) {
        if (undos[i].captured) break; /* nothing before a capture can come back */
        if (((j - i) & 1) == 0 && undos[i].key == k) {
            if (out && found < cap) out[found] = i;
            found++;
        }
    }
    return found;
}

int xq_repetition_counts(const xq_pos *pos, const xq_undo *undos, int n, uint8_t *out) {
    if (!pos || !out || n < 0 || (n > 0 && !undos)) return XQ_E_ARG;
    int best = 0;
    for (int j = 0; j <= n; j++) {
        int c = 1 + count_back(pos, undos, n, j, NULL, 0);
        if (c > 255) c = 255;
        out[j] = (uint8_t)c;
        if (c > best) best = c;
    }
    return best;
}

int xq_repetition_plies(const xq_pos *pos, const xq_undo *undos, int n, int at, int *out, int cap) {
    if (!pos || n < 0 || (n > 0 && !undos) || at < 0 || at > n || cap < 0 || (!out && cap)) return XQ_E_ARG;
    return count_back(pos, undos, n, at, out, cap);
}

/* ------------------------------------------------------ repetition loops */

static void add_victims(xq_rep_info *r, const xq_facts *f) {
    for (int k = 0; k < f->n_chases; k++) {
        const xq_chase *c = &f->chases[k];
        int id = c->victim_id;
        if (id < 128) r->victims[id >> 6] |= (uint64_t)1 << (id & 63);
        int rook = (c->victim_piece & 7) == XQ_ROOK;
        if (c->reason == XQ_CHASE_SHORT_ROOT) r->chase |= rook ? XQ_PLYC_JOINT_ROOK : XQ_PLYC_JOINT_OTHER;
        else r->chase |= rook ? XQ_PLYC_SINGLE_ROOK : XQ_PLYC_SINGLE_OTHER;
    }
}

/* The mate threat (杀) of the move from position i, computed once: the
   cursor position *cur (at position *cur_ply) walks there over the undo
   records. */
static int ply_kill(xq_pos *cur, int *cur_ply, const xq_undo *undos, int i, int flags, xq_rep_info *r) {
    if (r->ply & XQ_PLY_NO_KILL) return 0;
    if (!(r->ply & XQ_PLY_KILL_ASKED)) {
        xq_undo u;
        while (*cur_ply > i) step_back(cur, &undos[--*cur_ply]);
        while (*cur_ply < i) step_forward(cur, undos[(*cur_ply)++].move, &u);
        xq_pos after = *cur;
        pos_do_move_fast(&after, undos[i].move, &u);
        uint8_t fflags = 0;
        r->ply |= XQ_PLY_KILL_ASKED;
        if (kill_after(&after, flags, &fflags)) r->ply |= XQ_PLY_KILL;
    }
    return (r->ply & XQ_PLY_KILL) != 0;
}

/* XQ_LOOP_* of one side's moves: positions first, first + 2, ... before end. */
static uint8_t loop_bits(xq_pos *cur, int *cur_ply, const xq_undo *undos, int first, int end, int flags,
                         xq_rep_info *out, uint8_t *more) {
    *more = 0;
    if (first >= end) return 0;
    int all_check = 1, all_chase = 1, all_attack = 1;
    uint64_t common[2] = {~(uint64_t)0, ~(uint64_t)0};
    for (int i = first; i < end; i += 2) {
        uint8_t b = out[i].ply;
        if (!(b & XQ_PLY_CHECK)) all_check = 0;
        if ((b & XQ_PLY_CHECK) || !(b & XQ_PLY_CHASE)) {
            all_chase = 0;
        } else {
            common[0] &= out[i].victims[0];
            common[1] &= out[i].victims[1];
        }
    }
    if (all_chase && !(common[0] | common[1])) all_chase = 0;
    /* An attack is a check, a chase or a mate threat; the (costly) threat
       is only asked where neither of the others is, and the first idle
       move settles it. */
    for (int i = first; i < end && all_attack; i += 2)
        if (!(out[i].ply & (XQ_PLY_CHECK | XQ_PLY_CHASE)) && !ply_kill(cur, cur_ply, undos, i, flags, &out[i]))
            all_attack = 0;
    uint8_t bits = XQ_LOOP_MOVES;
    if (all_check) bits |= XQ_LOOP_ALL_CHECK;
    if (all_chase) bits |= XQ_LOOP_ALL_CHASE;
    if (!all_attack) return bits;
    bits |= XQ_LOOP_ALL_ATTACK;
    uint64_t same[2] = {~(uint64_t)0, ~(uint64_t)0};
    uint8_t every = XQ_PLYC_SINGLE_ROOK | XQ_PLYC_SINGLE_OTHER, chasing = XQ_PLYC_JOINT_ROOK | XQ_PLYC_JOINT_OTHER;
    for (int i = first; i < end; i += 2) {
        every &= out[i].chase;
        if (out[i].ply & XQ_PLY_CHECK) {
            bits |= XQ_LOOP_KIND_CHECK;
        } else if (ply_kill(cur, cur_ply, undos, i, flags, &out[i])) {
            bits |= XQ_LOOP_KIND_KILL;
        } else {
            bits |= XQ_LOOP_KIND_CHASE;
            same[0] &= out[i].victims[0];
            same[1] &= out[i].victims[1];
            chasing &= out[i].chase;
        }
    }
    if ((bits & XQ_LOOP_KIND_CHASE) && (same[0] | same[1])) bits |= XQ_LOOP_SAME_VICTIM;
    /* 棋例通则 九: single chases on every move; joint chases on every chasing move (there is one). */
    *more = (uint8_t)(every | ((bits & XQ_LOOP_KIND_CHASE) ? chasing : 0));
    return bits;
}

/* Counting occurrences in one pass: a small open-addressing table maps the
   keys of the current capture-free stretch to their latest position, and
   each position links to the previous one with its key (kept in
   out[j].loop_start until the loops are known). */
#define REP_SLOTS 1024
typedef struct rep_slot {
    uint64_t key;
    int32_t at;    /* latest position with this key */
    int32_t gen;   /* the stretch it belongs to (older entries are free) */
} rep_slot;

/* out[j].count and the link of every position; returns 0, or -1 when the
   table filled up (the caller then counts by scanning back). */
static int count_by_table(const xq_pos *pos, const xq_undo *undos, int n, xq_rep_info *out) {
    rep_slot table[REP_SLOTS];
    unsigned slots = 64;
    while (slots < REP_SLOTS && slots < 2u * (unsigned)(n + 1)) slots *= 2;
    memset(table, 0, slots * sizeof table[0]);
    unsigned mask = slots - 1;
    int gen = 1, used = 0;
    for (int j = 0; j <= n; j++) {
        if (j > 0 && undos[j - 1].captured) {
            gen++; /* nothing before a capture can come back */
            used = 0;
        }
        uint64_t k = key_at(pos, undos, n, j);
        unsigned h = (unsigned)(k ^ (k >> 29)) & mask;
        while (table[h].gen == gen && table[h].key != k) h = (h + 1) & mask;
        xq_rep_info *r = &out[j];
        memset(r, 0, sizeof *r);
        r->loop_start = -1;
        r->count = 1;
        if (table[h].gen == gen) {
            int i = table[h].at;
            if ((j - i) & 1) return -1; /* keys carry the side to move: cannot happen */
            r->loop_start = i;
            r->count = (uint8_t)(out[i].count < 255 ? out[i].count + 1 : 255);
        } else {
            if (++used > (int)(slots / 2)) return -1;
            table[h].key = k;
            table[h].gen = gen;
        }
        table[h].at = j;
    }
    return 0;
}

int xq_history_from_opening(const xq_pos *pos, const xq_undo *undos, int n) {
    if (!pos || n < 0 || (n > 0 && !undos)) return XQ_E_ARG;
    static const char START[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    xq_pos s;
    if (xq_pos_set_fen(&s, START, sizeof START - 1, NULL) != XQ_OK) return 0;
    uint64_t key = n ? undos[0].key : pos->key;
    uint32_t fullmove = n ? undos[0].fullmove : pos->fullmove;
    return key == s.key && fullmove == 1;
}

int xq_repetition_loops(const xq_pos *pos, const xq_undo *undos, int n, int count, int flags, xq_rep_info *out) {
    if (!pos || !out || n < 0 || (n > 0 && !undos) || count < 2 || count > 255) return XQ_E_ARG;
    int first = n, due = 0;
    if (count_by_table(pos, undos, n, out) == 0) {
        /* Follow the links back (count - 2 steps) from the last position due to the first; going down, the
           links a position needs are still in place when it is reached. */
        for (int j = n; j >= 0; j--) {
            xq_rep_info *r = &out[j];
            if (r->count < count) {
                r->loop_start = -1;
                continue;
            }
            int i = r->loop_start;
            for (int step = 2; step < count; step++) i = out[i].loop_start;
            r->loop_start = i;
        }
    } else {
        int prev[256];
        for (int j = 0; j <= n; j++) {
            xq_rep_info *r = &out[j];
            memset(r, 0, sizeof *r);
            int c = 1 + count_back(pos, undos, n, j, prev, count - 1);
            r->count = (uint8_t)(c > 255 ? 255 : c);
            r->loop_start = c >= count ? prev[count - 2] : -1;
        }
    }
    for (int j = 0; j <= n; j++) {
        if (out[j].loop_start >= 0) {
            if (out[j].loop_start < first) first = out[j].loop_start;
            due++;
        }
    }
    if (!due) return 0;
    for (int j = first + 1; j <= n; j++)
        for (int i = out[j].loop_start; i >= 0 && i < j; i++) out[i].ply |= XQ_PLY_IN_LOOP;
    /* One walk from the earliest loop start: the facts of every move inside a
       loop, with identities taken at that start (a loop has no capture, so
       every piece in it has one identity). */
    xq_pos q = *pos;
    if (rewind_to(&q, undos, n, first) != XQ_OK) return XQ_E_ARG;
    uint8_t ids[90];
    for (int s = 0; s < 90; s++) ids[s] = q.board[s] ? (uint8_t)s : NO_SQ;
    int fl = flags & ~XQ_FACTS_KILL;
    for (int i = first; i < n; i++) {
        xq_move m = undos[i].move;
        xq_rep_info *r = &out[i];
        if (!m) {
            /* A null move: idle, no mate threat; the loops holding it are not judged (below). */
            if (r->ply & XQ_PLY_IN_LOOP) r->ply = XQ_PLY_IN_LOOP | XQ_PLY_ANALYSED | XQ_PLY_NO_KILL | XQ_PLY_NULL;
            xq_undo u;
            xq_pos_do_null(&q, &u);
            continue;
        }
        if (r->ply & XQ_PLY_IN_LOOP) {
            xq_facts f;
            facts_at(&q, m, fl, ids, &f);
            uint8_t b = XQ_PLY_IN_LOOP | XQ_PLY_ANALYSED;
            if (f.check) b |= XQ_PLY_CHECK;
            if (f.n_chases) {
                b |= XQ_PLY_CHASE;
                add_victims(r, &f);
            }
            int king_evasion = (f.mover & 7) == XQ_KING && f.evasion;
            if (!(flags & XQ_FACTS_KILL) || (flags & XQ_FACTS_CHECK_ONLY) || f.check ||
                (f.flags & XQ_FACT_ILLEGAL) || ((flags & XQ_FACTS_CXA) && king_evasion))
                b |= XQ_PLY_NO_KILL;
            r->ply = b;
        }
        int from = move_from(m), to = move_to(m);
        xq_undo u;
        pos_do_move_fast(&q, m, &u);
        ids[to] = ids[from];
        ids[from] = NO_SQ;
    }
    /* q is the position after n plies again: the cursor for mate threats. */
    int cur_ply = n, suspects = 0;
    int early = (flags >> 16) & 255;
    if (early && xq_history_from_opening(pos, undos, n) != 1) early = 0;
    for (int j = first + 1; j <= n; j++) {
        int s = out[j].loop_start;
        if (s < 0) continue;
        int side_s = pos->side ^ ((n - s) & 1); /* to move at position s */
        int any = 0, null = 0;
        for (int i = s; i < j && !null; i++) null = undos[i].move == 0;
        if (null) {
            out[j].loop[0] = out[j].loop[1] = 0; /* a pass in the loop: judged against nobody */
            out[j].loop_more[0] = out[j].loop_more[1] = 0;
            continue;
        }
        for (int color = 0; color < 2; color++) {
            uint8_t more;
            uint8_t bits = loop_bits(&q, &cur_ply, undos, s + (side_s == color ? 0 : 1), j, flags, out, &more);
            out[j].loop[color] = bits;
            out[j].loop_more[color] = more;
            if (bits & XQ_LOOP_ALL_ATTACK) any = 1;
        }
        /* Within the opening's first rounds a draw may be Red's loss (CXA #03 三). */
        if (early && (j < n ? undos[j].fullmove : pos->fullmove) <= (uint32_t)early) any = 1;
        suspects += any;
    }
    return suspects;
}

/* ------------------------------------------------------------- verdicts */

int xq_loop_pattern(int side, int rules) {
    int bits = side & 0xff;
    if (!(bits & XQ_LOOP_MOVES)) return XQ_PATTERN_ALLOWED;
    if (bits & XQ_LOOP_ALL_CHECK) return XQ_PATTERN_CHECK;
    if (!(rules & XQ_RULE_MIXED))
        /* Asian rules: any check or idle move breaks a perpetual chase (of one piece); mate threats are allowed. */
        return (bits & XQ_LOOP_ALL_CHASE) ? XQ_PATTERN_CHASE : XQ_PATTERN_ALLOWED;
    if (!(bits & XQ_LOOP_ALL_ATTACK)) return XQ_PATTERN_ALLOWED;
    if ((rules & XQ_RULE_SAME_VICTIM) && (bits & XQ_LOOP_KIND_CHASE) && !(bits & XQ_LOOP_SAME_VICTIM))
        return XQ_PATTERN_ALLOWED;
    switch (bits & (XQ_LOOP_KIND_CHECK | XQ_LOOP_KIND_KILL | XQ_LOOP_KIND_CHASE)) {
    case XQ_LOOP_KIND_KILL: return XQ_PATTERN_KILL;
    case XQ_LOOP_KIND_CHASE: return XQ_PATTERN_CHASE;
    case XQ_LOOP_KIND_CHECK | XQ_LOOP_KIND_KILL: return XQ_PATTERN_CHECK_KILL;
    case XQ_LOOP_KIND_CHECK | XQ_LOOP_KIND_CHASE: return XQ_PATTERN_CHECK_CHASE;
    case XQ_LOOP_KIND_KILL | XQ_LOOP_KIND_CHASE: return XQ_PATTERN_KILL_CHASE;
    default: return XQ_PATTERN_MIXED;
    }
}

/* The side of summary x chases (长捉) a rook / a non-rook by one piece's own attack on every move while
   the side of summary y chases it jointly (棋例通则 九 (2)(3)). */
static int joint_exception(int x, int y, int rules) {
    if (xq_loop_pattern(x, rules) != XQ_PATTERN_CHASE) return 0;
    int mx = x >> 8, my = y >> 8;
    return ((mx & XQ_LOOPX_SINGLE_ROOK) && (my & XQ_LOOPX_JOINT_ROOK)) ||
           ((mx & XQ_LOOPX_SINGLE_OTHER) && (my & XQ_LOOPX_JOINT_OTHER));
}

#define VERDICT(why, loser) (((why) << 2) | ((loser) < 0 ? 0 : 2 | (loser)))

int xq_loop_verdict(int red, int black, int rules) {
    /* The guard: a side without an attack on every move (no XQ_LOOP_ALL_ATTACK and no all-check or
       all-chase) plays an allowed pattern under every rule book, and both summaries 0 mean a pass. */
    if (!((red | black) & 0xff)) return VERDICT(XQ_WHY_NULL, -1);
    int why = XQ_WHY_ALLOWED;
    int quiet = XQ_LOOP_ALL_CHECK | XQ_LOOP_ALL_CHASE | XQ_LOOP_ALL_ATTACK;
    if ((red | black) & quiet) {
        int rp = xq_loop_pattern(red, rules), bp = xq_loop_pattern(black, rules);
        if (rp == XQ_PATTERN_CHECK && bp == XQ_PATTERN_CHECK) {
            why = XQ_WHY_MUTUAL_CHECK;
        } else if (rp == XQ_PATTERN_CHECK || bp == XQ_PATTERN_CHECK) {
            return VERDICT(XQ_WHY_CHECK, rp == XQ_PATTERN_CHECK ? XQ_RED : XQ_BLACK);
        } else if (rp && bp) {
            why = XQ_WHY_BOTH;
            if (rules & XQ_RULE_JOINT) {
                if (joint_exception(red, black, rules)) return VERDICT(XQ_WHY_JOINT, XQ_RED);
                if (joint_exception(black, red, rules)) return VERDICT(XQ_WHY_JOINT, XQ_BLACK);
            }
        } else if (rp || bp) {
            return VERDICT(XQ_WHY_FORBIDDEN, rp ? XQ_RED : XQ_BLACK);
        }
    }
    /* A draw: within the opening's first rounds Red must vary (CXA #03 三). */
    if (rules & XQ_RULE_RED_MUST_VARY) return VERDICT(XQ_WHY_RED_MUST_VARY, XQ_RED);
    return VERDICT(why, -1);
}
