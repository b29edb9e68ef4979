/*
 * movegen.c - pseudo-legal and legal move generation, legality tests,
 * gives-check, and perft.
 *
 * Legality.  A move is tested against the full attack set of the king
 * (one attacked_by() call on the new occupancy) only when it can possibly
 * expose the king:
 *   - the side to move is in check, or the king itself moves;
 *   - the moving piece is a blocker: the only piece between the king and
 *     an enemy rook, or the enemy king on the same file (flying general), or a piece on the leg of an
 *     enemy horse that would otherwise attack the king;
 *   - the move leaves or enters a square between the king and an enemy
 *     cannon on one of the king's lines ("cannon zone"): that changes the
 *     number of screens, so it can create a cannon check either way.
 * Every other move keeps all those lines as they were, so it is legal.
 * (A king standing in the enemy half, possible only in odd set-ups, has
 * every move tested.)
 */
#include "xq_internal.h"

typedef struct {
    xq_bb checkers;
    xq_bb blockers;  /* our pieces whose move must be tested */
    xq_bb zone;      /* squares whose (de)occupation must be tested */
    xq_bb bad_zone;  /* empty lines between the king and an enemy cannon: a piece stepping in gives check */
    int ksq;
} check_info;

static inline void compute_info(const xq_pos *p, check_info *ci) {
    int us = p->side, them = us ^ 1;
    int ksq = p->king_sq[us];
    xq_bb occ = pos_occ(p), rot = p->occ_rot;
    xq_bb ours = p->by_color[us], their = p->by_color[them];
    ci->ksq = ksq;
    ci->blockers = 0;
    ci->zone = 0;
    ci->bad_zone = 0;
    ci->checkers = 0;
    xq_bb lines = LINE_EMPTY[ksq];
    xq_bb snipers = lines & their & (p->by_type[XQ_ROOK] | (p->by_type[XQ_KING] & FILE_OF_BB[ksq]));
    while (snipers) {
        int s = bb_pop_lsb(&snipers);
        xq_bb b = BETWEEN[ksq][s] & occ;
        if (!b) ci->checkers |= SQ_BB[s];
        else if (!bb_more_than_one(b)) ci->blockers |= b & ours;
    }
    xq_bb cannons = lines & their & p->by_type[XQ_CANNON];
    while (cannons) {
        int s = bb_pop_lsb(&cannons);
        ci->zone |= BETWEEN[ksq][s];
        xq_bb b = BETWEEN[ksq][s] & occ;
        if (!b) ci->bad_zone |= BETWEEN[ksq][s];
        else if (!bb_more_than_one(b)) ci->checkers |= SQ_BB[s];
    }
    xq_bb horses = their & p->by_type[XQ_HORSE];
    if (HORSE_REV_EMPTY[ksq] & horses) {
        for (int i = 0; i < 4; i++) {
            int leg = HORSE_TO_LEG[ksq][i];
            if (leg == NO_SQ || !(HORSE_TO_SRC[ksq][i] & horses)) continue;
            if (!bb_test(occ, leg)) ci->checkers |= HORSE_TO_SRC[ksq][i] & horses;
            else ci->blockers |= SQ_BB[leg] & ours;
        }
    }
    ci->checkers |= PAWN_TO[them][ksq] & their & p->by_type[XQ_PAWN];
    (void)rot;
}

/* Full test: after moving our piece from->to, is our king (now on ksq)
   free of attack? */
static inline int safe_after(const xq_pos *p, int from, int to, int ksq) {
    int them = p->side ^ 1;
    xq_bb occ = (pos_occ(p) ^ SQ_BB[from]) | SQ_BB[to];
    xq_bb rot = (p->occ_rot ^ ROT_BB[from]) | ROT_BB[to];
    xq_bb their = p->by_color[them] & ~SQ_BB[to];
    return !attacked_by(p, ksq, them, their, occ, rot);
}

/* Squares a move may never go to: our own pieces and the enemy king (a
   position where the king could be taken is invalid, Status.OPPOSITE_CHECK
   in Python, and capturing it would break the one-king invariant). */
static inline xq_bb no_target(const xq_pos *p) {
    int us = p->side;
    return p->by_color[us] | SQ_BB[p->king_sq[us ^ 1]];
}

/* Target squares of the piece on `from` (pseudo-legal). */
static inline xq_bb targets_of(const xq_pos *p, int from, xq_bb occ, xq_bb rot, xq_bb avoid) {
    int pc = p->board[from], c = pc >> 3;
    switch (pc & 7) {
    case XQ_PAWN: return PAWN_ATT[c][from] & ~avoid;
    case XQ_ADVISOR: return ADVISOR_ATT[c][from] & ~avoid;
    case XQ_ELEPHANT: {
        /* Eyes and legs are tested on the mailbox: cheaper than 128-bit shifts. */
        xq_bb a = 0;
        for (int i = 0; i < 4; i++) {
            int t = ELEPHANT_TGT[c][from][i];
            if (t != NO_SQ && !p->board[ELEPHANT_EYE[from][i]]) a |= SQ_BB[t];
        }
        return a & ~avoid;
    }
    case XQ_HORSE: {
        xq_bb a = 0;
        for (int i = 0; i < 4; i++) {
            int leg = HORSE_LEG[from][i];
            if (leg != NO_SQ && !p->board[leg]) a |= HORSE_TGT[from][i];
        }
        return a & ~avoid;
    }
    case XQ_CANNON: return (rook_att(from, occ, rot) & ~occ) | (cannon_cap(from, occ, rot) & occ & ~avoid);
    case XQ_ROOK: return rook_att(from, occ, rot) & ~avoid;
    case XQ_KING: return KING_ATT[c][from] & ~avoid;
    default: return 0;
    }
}

/* Appends a move from `from` to every square of b; returns the new count.
   The two 64-bit halves are walked separately (cheaper than 128-bit pops). */
static inline int serialize(xq_move *out, int n, int from, xq_bb b) {
    uint64_t lo = bb_lo(b), hi = bb_hi(b);
    int base = from << 7;
    while (lo) {
        out[n++] = (xq_move)(base | __builtin_ctzll(lo));
        lo &= lo - 1;
    }
    while (hi) {
        out[n++] = (xq_move)(base | (64 + __builtin_ctzll(hi)));
        hi &= hi - 1;
    }
    return n;
}

int xq_gen_pseudo_legal(const xq_pos *p, xq_move *out, int cap) {
    if (!p || (!out && cap)) return XQ_E_ARG;
    xq_move buf[XQ_MAX_MOVES];
    int n = 0;
    xq_bb occ = pos_occ(p), rot = p->occ_rot, avoid = no_target(p);
    xq_bb pieces = p->by_color[p->side];
    while (pieces) {
        int from = bb_pop_lsb(&pieces);
        xq_bb t = targets_of(p, from, occ, rot, avoid);
        while (t && n < XQ_MAX_MOVES) buf[n++] = make_move(from, bb_pop_lsb(&t));
    }
    if (n > cap) return XQ_E_BUFFER_SMALL;
    memcpy(out, buf, (size_t)n * sizeof *buf);
    return n;
}

static inline int gen_legal_with(const xq_pos *p, xq_move *out, const check_info *ci);

/* Counts the legal moves (the leaves of a bulk perft: most of its time).
   Out of check, a piece that is neither a blocker nor on a cannon line of
   the king (nor the king) can only expose the king by stepping into an
   empty line between the king and an enemy cannon (it becomes the screen):
   its legal moves are its targets outside those lines, counted by type
   with no table switch and no test.  The king and the careful pieces are
   tested move by move; in check, gen_legal_with counts. */
static inline int count_legal(const xq_pos *p) {
    check_info ci;
    compute_info(p, &ci);
    int us = p->side, them = us ^ 1, ksq = ci.ksq;
    if (ci.checkers || bb_test(HALF_BB[them], ksq)) return gen_legal_with(p, NULL, &ci);
    xq_bb occ = pos_occ(p), rot = p->occ_rot;
    xq_bb ours = p->by_color[us], their = p->by_color[them];
    xq_bb avoid = ours | SQ_BB[p->king_sq[them]];
    xq_bb to_ok = ~avoid & ~ci.bad_zone;
    xq_bb careful = (ci.blockers | ci.zone | SQ_BB[ksq]) & ours;
    xq_bb free = ours & ~careful;
    int n = 0;
    xq_bb b = free & p->by_type[XQ_ROOK];
    while (b) {
        int s = bb_pop_lsb(&b);
        n += bb_popcount(rook_att(s, occ, rot) & to_ok);
    }
    b = free & p->by_type[XQ_CANNON];
    while (b) {
        int s = bb_pop_lsb(&b);
        n += bb_popcount(((rook_att(s, occ, rot) & ~occ) | (cannon_cap(s, occ, rot) & their)) & to_ok);
    }
    b = free & p->by_type[XQ_HORSE];
    while (b) {
        int s = bb_pop_lsb(&b);
        xq_bb a = 0;
        for (int i = 0; i < 4; i++) {
            int leg = HORSE_LEG[s][i];
            if (leg != NO_SQ && !p->board[leg]) a |= HORSE_TGT[s][i];
        }
        n += bb_popcount(a & to_ok);
    }
    b = free & p->by_type[XQ_ELEPHANT];
    while (b) {
        int s = bb_pop_lsb(&b);
        for (int i = 0; i < 4; i++) {
            int t = ELEPHANT_TGT[us][s][i];
            if (t != NO_SQ && !p->board[ELEPHANT_EYE[s][i]]) n += bb_test(to_ok, t);
        }
    }
    b = free & p->by_type[XQ_ADVISOR];
    while (b) {
        int s = bb_pop_lsb(&b);
        n += bb_popcount(ADVISOR_ATT[us][s] & to_ok);
    }
    b = free & p->by_type[XQ_PAWN];
    while (b) {
        int s = bb_pop_lsb(&b);
        n += bb_popcount(PAWN_ATT[us][s] & to_ok);
    }
    b = careful;
    while (b) {
        int from = bb_pop_lsb(&b);
        xq_bb t = targets_of(p, from, occ, rot, avoid);
        int king = from == ksq;
        while (t) {
            int to = bb_pop_lsb(&t);
            n += safe_after(p, from, to, king ? to : ksq);
        }
    }
    return n;
}

/* Generates (out != NULL) or counts (out == NULL) the legal moves. */
static inline int gen_legal(const xq_pos *p, xq_move *out) {
    if (!out) return count_legal(p);
    check_info ci;
    compute_info(p, &ci);
    return gen_legal_with(p, out, &ci);
}

static inline int gen_legal_with(const xq_pos *p, xq_move *out, const check_info *cip) {
    check_info ci = *cip;
    int n = 0;
    int us = p->side;
    xq_bb occ = pos_occ(p), rot = p->occ_rot, avoid = no_target(p);
    xq_bb careful = ci.blockers | ci.zone | SQ_BB[ci.ksq];
    /* A king in the enemy half (odd set-ups only) can also be hit by
       advisors, elephants and the king, which compute_info does not track:
       test every move then. */
    int in_check = ci.checkers != 0 || bb_test(HALF_BB[us ^ 1], ci.ksq);
    /* Evasions: with one checker, a move other than the king's must capture
       it or block it (its line; a horse's leg), or, for a cannon, move our
       screen; only those are tested. */
    xq_bb evade = ~(xq_bb)0, exempt = SQ_BB[ci.ksq];
    if (ci.checkers && !bb_more_than_one(ci.checkers) && !bb_test(HALF_BB[us ^ 1], ci.ksq)) {
        int c = bb_lsb(ci.checkers), type = p->board[c] & 7;
        evade = SQ_BB[c];
        if (type == XQ_HORSE) evade |= SQ_BB[HORSE_LEG_BETWEEN[c][ci.ksq]];
        else if (type != XQ_PAWN) evade |= BETWEEN[ci.ksq][c];
        if (type == XQ_CANNON) exempt |= BETWEEN[ci.ksq][c] & p->by_color[us];
    }
    xq_bb pieces = p->by_color[us];
    while (pieces) {
        int from = bb_pop_lsb(&pieces);
        xq_bb t = targets_of(p, from, occ, rot, avoid);
        if (!t) continue;
        xq_bb test;
        if (in_check) {
            test = bb_test(exempt, from) ? t : t & evade;
        } else if (bb_test(careful, from)) {
            test = t;
        } else {
            test = t & ci.zone;
            xq_bb ok = t & ~ci.zone;
            if (out) {
                n = serialize(out, n, from, ok);
            } else {
                n += bb_popcount(ok);
            }
        }
        int king = from == ci.ksq;
        while (test) {
            int to = bb_pop_lsb(&test);
            if (safe_after(p, from, to, king ? to : ci.ksq)) {
                if (out) out[n] = make_move(from, to);
                n++;
            }
        }
    }
    return n;
}

int xq_gen_legal(const xq_pos *p, xq_move *out, int cap) {
    if (!p || (!out && cap)) return XQ_E_ARG;
    xq_move buf[XQ_MAX_MOVES];
    int n = gen_legal(p, buf);
    if (n > cap) return XQ_E_BUFFER_SMALL;
    memcpy(out, buf, (size_t)n * sizeof *buf);
    return n;
}

int xq_count_legal(const xq_pos *p) {
    if (!p) return XQ_E_ARG;
    return gen_legal(p, NULL);
}

int xq_pos_is_pseudo_legal(const xq_pos *p, xq_move m) {
    if (!p) return 0;
    int from = move_from(m), to = move_to(m);
    if (m >> 14 || from >= 90 || to >= 90) return 0;
    int pc = p->board[from];
    if (!pc || (pc >> 3) != p->side) return 0;
    return bb_test(targets_of(p, from, pos_occ(p), p->occ_rot, no_target(p)), to);
}

int xq_pos_is_legal(const xq_pos *p, xq_move m) {
    if (!xq_pos_is_pseudo_legal(p, m)) return 0;
    int from = move_from(m), to = move_to(m);
    int ksq = p->king_sq[p->side];
    return safe_after(p, from, to, from == ksq ? to : ksq);
}

int xq_gives_check(const xq_pos *p, xq_move m) {
    if (!xq_pos_is_pseudo_legal(p, m)) return 0;
    xq_pos q = *p;
    xq_undo u;
    pos_do_move_fast(&q, m, &u);
    return xq_pos_in_check(&q);
}

/* Whether the caller asked to stop (stop may be NULL).  Read at interior
   nodes only, about one in forty nodes, so the cost does not show; another
   thread sets the flag, hence the atomic load. */
static inline int stopped(const int *stop) {
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

static uint64_t perft_bulk(xq_pos *p, int depth, const int *stop) {
    xq_move moves[XQ_MAX_MOVES];
    if (depth == 1) return (uint64_t)gen_legal(p, NULL);
    if (stopped(stop)) return 0;
    int n = gen_legal(p, moves);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        pos_do_move_fast(p, moves[i], &u);
        nodes += perft_bulk(p, depth - 1, stop);
        pos_undo_move_fast(p, &u);
    }
    return nodes;
}

static uint64_t perft_full(xq_pos *p, int depth, const int *stop) {
    if (depth == 0) return 1;
    if (depth > 1 && stopped(stop)) return 0;
    xq_move moves[XQ_MAX_MOVES];
    int n = gen_legal(p, moves);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        pos_do_move_fast(p, moves[i], &u);
        nodes += perft_full(p, depth - 1, stop);
        pos_undo_move_fast(p, &u);
    }
    return nodes;
}

uint64_t xq_perft(const xq_pos *pos, int depth, int bulk) {
    return xq_perft_stoppable(pos, depth, bulk, NULL);
}

uint64_t xq_perft_stoppable(const xq_pos *pos, int depth, int bulk, const int *stop) {
    if (!pos || depth < 0) return 0;
    if (depth == 0) return 1;
    xq_pos p = *pos;
    return bulk ? perft_bulk(&p, depth, stop) : perft_full(&p, depth, stop);
}

/* Hashed perft.  The table is an array of two-entry buckets (32 bytes);
   an entry is two words, check = key ^ data and data = nodes << 8 | depth,
   written and read with relaxed atomics and no lock: a torn entry (words of
   two writers) fails the check and counts as a miss, so threads can share a
   table.  A hit needs the full 64-bit key and the depth to match.  Slot 0
   keeps the deeper count, slot 1 takes every new one. */
#define TT_NODES_MAX ((uint64_t)1 << 56)

typedef struct {
    uint64_t *tt;           /* buckets * 4 words */
    uint64_t buckets;
    uint32_t verify_every;  /* recount 1 hit in this many (0: none) */
    uint32_t hits;
    int mismatch;
    const int *stop;
} hash_ctx;

static inline uint64_t *tt_bucket(const hash_ctx *h, uint64_t key) {
    return h->tt + 4 * (uint64_t)(((unsigned __int128)key * h->buckets) >> 64);
}

static inline int tt_probe(const hash_ctx *h, uint64_t key, int depth, uint64_t *nodes) {
    uint64_t *b = tt_bucket(h, key);
    for (int i = 0; i < 2; i++) {
        uint64_t check = __atomic_load_n(&b[2 * i], __ATOMIC_RELAXED);
        uint64_t data = __atomic_load_n(&b[2 * i + 1], __ATOMIC_RELAXED);
        if ((check ^ data) == key && (int)(data & 255) == depth) {
            *nodes = data >> 8;
            return 1;
        }
    }
    return 0;
}

static inline void tt_store(const hash_ctx *h, uint64_t key, int depth, uint64_t nodes) {
    if (nodes >= TT_NODES_MAX) return;
    uint64_t *b = tt_bucket(h, key);
    uint64_t data = nodes << 8 | (uint64_t)depth;
    int slot = (int)(__atomic_load_n(&b[1], __ATOMIC_RELAXED) & 255) <= depth ? 0 : 1;
    __atomic_store_n(&b[2 * slot], key ^ data, __ATOMIC_RELAXED);
    __atomic_store_n(&b[2 * slot + 1], data, __ATOMIC_RELAXED);
}

static uint64_t perft_hashed(xq_pos *p, int depth, hash_ctx *h) {
    if (depth == 1) return (uint64_t)gen_legal(p, NULL);
    uint64_t nodes;
    if (tt_probe(h, p->key, depth, &nodes)) {
        if (h->verify_every && ++h->hits % h->verify_every == 0) {
            uint64_t again = perft_bulk(p, depth, h->stop);
            if (again != nodes && !stopped(h->stop)) h->mismatch = 1;
        }
        return nodes;
    }
    if (stopped(h->stop)) return 0;
    xq_move moves[XQ_MAX_MOVES];
    int n = gen_legal(p, moves);
    nodes = 0;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        pos_do_move_fast(p, moves[i], &u);
        nodes += perft_hashed(p, depth - 1, h);
        pos_undo_move_fast(p, &u);
    }
    /* Once stop is set the counts below are partial: never store those. */
    if (!stopped(h->stop)) tt_store(h, p->key, depth, nodes);
    return nodes;
}

int xq_perft_hashed(const xq_pos *pos, int depth, void *table, size_t table_bytes, uint32_t verify_every,
                    const int *stop, uint64_t *nodes) {
    if (nodes) *nodes = 0;
    if (!pos || !nodes || depth < 0 || depth > 255 || !table || table_bytes < XQ_PERFT_HASH_BUCKET ||
        (uintptr_t)table % 8)
        return XQ_E_ARG;
    if (depth == 0) { *nodes = 1; return XQ_OK; }
    hash_ctx h = {(uint64_t *)table, table_bytes / XQ_PERFT_HASH_BUCKET, verify_every, 0, 0, stop};
    xq_pos p = *pos;
    *nodes = perft_hashed(&p, depth, &h);
    return h.mismatch ? XQ_E_HASH_MISMATCH : XQ_OK;
}

int xq_perft_divide(const xq_pos *pos, int depth, int bulk, xq_move *moves, uint64_t *counts, int cap) {
    if (!pos || !moves || !counts || depth < 1) return XQ_E_ARG;
    xq_pos p = *pos;
    xq_move buf[XQ_MAX_MOVES];
    int n = gen_legal(&p, buf);
    if (n > cap) return XQ_E_BUFFER_SMALL;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        pos_do_move_fast(&p, buf[i], &u);
        moves[i] = buf[i];
        counts[i] = depth == 1 ? 1 : bulk ? perft_bulk(&p, depth - 1, NULL) : perft_full(&p, depth - 1, NULL);
        pos_undo_move_fast(&p, &u);
    }
    return n;
}
