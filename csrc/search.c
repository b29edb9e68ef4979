/*
 * search.c - alpha-beta search and evaluation (see xq_search.h).
 *
 * Moves come from the legal generator, so the search never makes an
 * illegal move and needs no king-capture tests; the cost is a full
 * legality pass at every node, which keeps this engine small rather than
 * strong.
 */
#define _POSIX_C_SOURCE 199309L  /* clock_gettime under -std=c11 as well as gnu11 */
#include <time.h>

#include "xq_internal.h"

#define INF 32000
/* Marks a state prepared by xq_search_begin (a zeroed or stale struct is refused). */
#define XQ_SEARCH_READY 0x58515352u
#define DRAW 0
enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* Piece values by type (pawn, advisor, elephant, horse, cannon, rook). */
static const int VALUE[8] = {0, 100, 200, 200, 400, 450, 900, 0};

/* Piece-square bonuses from Red's side, indexed [rank][file], rank 0 =
   Red's back rank; Black reads them with the rank mirrored. */
static const int8_t PST_PAWN[10][9] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, -2, 0, 4, 0, -2, 0, 0},
    {2, 0, 8, 0, 8, 0, 8, 0, 2},
    {60, 70, 80, 90, 90, 90, 80, 70, 60},
    {70, 80, 100, 110, 110, 110, 100, 80, 70},
    {70, 90, 110, 130, 140, 130, 110, 90, 70},
    {70, 90, 110, 120, 125, 120, 110, 90, 70},
    {10, 10, 10, 20, 30, 20, 10, 10, 10},
};
static const int8_t PST_HORSE[10][9] = {
    {0, -6, 2, 0, 2, 0, 2, -6, 0},
    {0, 2, 4, 8, -4, 8, 4, 2, 0},
    {4, 2, 8, 8, 4, 8, 8, 2, 4},
    {2, 6, 8, 6, 10, 6, 8, 6, 2},
    {4, 12, 16, 14, 12, 14, 16, 12, 4},
    {6, 16, 14, 18, 16, 18, 14, 16, 6},
    {8, 24, 18, 24, 20, 24, 18, 24, 8},
    {12, 14, 16, 20, 18, 20, 16, 14, 12},
    {4, 10, 28, 16, 8, 16, 28, 10, 4},
    {4, 8, 16, 12, 4, 12, 16, 8, 4},
};
static const int8_t PST_CANNON[10][9] = {
    {0, 0, 2, 6, 6, 6, 2, 0, 0},
    {0, 2, 4, 6, 6, 6, 4, 2, 0},
    {4, 0, 8, 6, 10, 6, 8, 0, 4},
    {0, 0, 0, 2, 4, 2, 0, 0, 0},
    {-2, 0, 4, 2, 6, 2, 4, 0, -2},
    {0, 0, 0, 2, 8, 2, 0, 0, 0},
    {0, 0, -2, 4, 10, 4, -2, 0, 0},
    {2, 2, 0, -10, -8, -10, 0, 2, 2},
    {2, 2, 0, -4, -14, -4, 0, 2, 2},
    {6, 4, 0, -10, -12, -10, 0, 4, 6},
};
static const int8_t PST_ROOK[10][9] = {
    {-6, 6, 4, 12, 0, 12, 4, 6, -6},
    {5, 8, 6, 12, 0, 12, 6, 8, 5},
    {-2, 8, 4, 12, 12, 12, 4, 8, -2},
    {4, 9, 4, 12, 14, 12, 4, 9, 4},
    {8, 12, 12, 14, 15, 14, 12, 12, 8},
    {8, 11, 11, 14, 15, 14, 11, 11, 8},
    {6, 13, 13, 16, 16, 16, 13, 13, 6},
    {6, 8, 7, 14, 16, 14, 7, 8, 6},
    {6, 12, 9, 16, 33, 16, 9, 12, 6},
    {6, 8, 7, 13, 14, 13, 7, 8, 6},
};
static const int8_t PST_KING[10][9] = {
    {0, 0, 0, 8, 10, 8, 0, 0, 0},
    {0, 0, 0, -8, -8, -8, 0, 0, 0},
    {0, 0, 0, -20, -20, -20, 0, 0, 0},
};
static const int8_t PST_GUARD[10][9] = {  /* advisors and elephants */
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 3, 0, 0, 0, 0},
    {-2, 0, 0, 0, 6, 0, 0, 0, -2},
};

static int piece_square(int type, int rank, int file) {
    switch (type) {
    case XQ_PAWN: return PST_PAWN[rank][file];
    case XQ_ADVISOR: case XQ_ELEPHANT: return PST_GUARD[rank][file];
    case XQ_HORSE: return PST_HORSE[rank][file];
    case XQ_CANNON: return PST_CANNON[rank][file];
    case XQ_ROOK: return PST_ROOK[rank][file];
    case XQ_KING: return PST_KING[rank][file];
    default: return 0;
    }
}

static int eval_pos(const xq_pos *p) {
    int score[2] = {0, 0};
    xq_bb occ = pos_occ(p);
    while (occ) {
        int s = bb_pop_lsb(&occ);
        int pc = p->board[s], c = pc >> 3, t = pc & 7;
        int r = RANK_OF[s];
        if (c == XQ_BLACK) r = 9 - r;
        score[c] += VALUE[t] + piece_square(t, r, FILE_OF[s]);
    }
    return score[p->side] - score[p->side ^ 1];
}

int xq_evaluate(const xq_pos *pos) {
    if (!pos || xq_pos_check(pos) != XQ_OK) return 0;
    return eval_pos(pos);
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t xq_search_elapsed_ms(const xq_search *s) {
    if (!s) return 0;
    return (now_ns() - s->start_ns) / 1000000;
}

void xq_tt_clear(xq_tt_entry *tt, uint64_t n) {
    if (tt && n) memset(tt, 0, (size_t)n * sizeof *tt);
}

void xq_search_clear(xq_search *s) {
    if (!s) return;
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
}

int xq_search_init(xq_search *s, xq_tt_entry *tt, uint64_t tt_size) {
    if (!s || (!tt && tt_size)) return XQ_E_ARG;
    memset(s, 0, sizeof *s);
    s->tt = tt_size ? tt : NULL;
    s->tt_size = tt_size;
    return XQ_OK;
}

int xq_search_begin(xq_search *s, const xq_pos *pos, const uint64_t *keys, int n_keys,
                    const xq_move *root_moves, int n_root) {
    if (!s || !pos || n_keys < 0 || n_root < 0 || (n_keys && !keys) || (n_root && !root_moves)) return XQ_E_ARG;
    if (xq_pos_check(pos) != XQ_OK) return XQ_E_FEN_POSITION;
    s->pos = *pos;
    int skip = n_keys > XQ_SEARCH_HISTORY_MAX ? n_keys - XQ_SEARCH_HISTORY_MAX : 0;
    s->n_keys = n_keys - skip;
    if (s->n_keys) memcpy(s->keys, keys + skip, (size_t)s->n_keys * sizeof *keys);
    s->keys[s->n_keys] = pos->key;
    s->n_root = 0;
    for (int i = 0; i < n_root && s->n_root < XQ_MAX_MOVES; i++) {
        int dup = 0;
        for (int j = 0; j < s->n_root; j++) dup |= s->root_moves[j] == root_moves[i];
        if (!dup && xq_pos_is_legal(pos, root_moves[i])) s->root_moves[s->n_root++] = root_moves[i];
    }
    /* Asked to restrict the root to moves none of which is legal: no move. */
    if (n_root && !s->n_root) s->n_root = -1;
    s->nodes = 0;
    s->depth = s->seldepth = s->score = s->pv_len = 0;
    s->best = 0;
    s->aborted = 0;
    s->start_ns = now_ns();
    s->ready = XQ_SEARCH_READY;
    return XQ_OK;
}

/* ---------------------------------------------------------------- limits */

static int out_of_budget(xq_search *s) {
    if (s->aborted) return 1;
    if (s->stop || (s->node_limit && s->nodes >= s->node_limit)) return s->aborted = 1;
    if (s->time_limit_ms && (s->nodes & 255) == 0 && now_ns() - s->start_ns >= s->time_limit_ms * 1000000)
        return s->aborted = 1;
    return 0;
}

/* --------------------------------------------------------------- table */

static xq_tt_entry *tt_slot(const xq_search *s, uint64_t key) {
    /* Multiply-high maps the key onto any table size, not only powers of two. */
    return &s->tt[(uint64_t)(((unsigned __int128)key * s->tt_size) >> 64)];
}

/* Mate scores are stored relative to the node, so they stay right when the
   same position is reached at another ply. */
static int score_to_tt(int score, int ply) {
    return score > XQ_MATE_BOUND ? score + ply : score < -XQ_MATE_BOUND ? score - ply : score;
}

static int score_from_tt(int score, int ply) {
    return score > XQ_MATE_BOUND ? score - ply : score < -XQ_MATE_BOUND ? score + ply : score;
}

static void tt_store(xq_search *s, uint64_t key, int depth, int score, int bound, xq_move move, int ply) {
    if (!s->tt) return;
    xq_tt_entry *e = tt_slot(s, key);
    /* Keep a deeper entry of the same position; always replace others. */
    if (e->key == key && e->depth > depth && bound != BOUND_EXACT) return;
    if (!move && e->key == key) move = e->move;
    e->key = key;
    e->score = (int16_t)score_to_tt(score, ply);
    e->move = move;
    e->depth = (int8_t)depth;
    e->bound = (uint8_t)bound;
}

/* ---------------------------------------------------------- repetition */

/* Whether the position at `ply` repeats an earlier one with the same side
   to move since the last capture (on the path or in the game). */
static int is_repetition(const xq_search *s, int ply) {
    int idx = s->n_keys + ply;
    uint64_t key = s->keys[idx];
    /* Not across a null move: the positions before it are not of this line. */
    int span = idx - s->rep_floor[ply];
    int reach = s->pos.halfmove < span ? s->pos.halfmove : span;
    for (int back = 4; back <= reach; back += 2)
        if (s->keys[idx - back] == key) return 1;
    return 0;
}

/* ------------------------------------------------------------ ordering */

#define SCORE_TT (1 << 30)
#define SCORE_CAPTURE (1 << 28)
#define SCORE_KILLER (1 << 27)

static void score_moves(const xq_search *s, const xq_move *moves, int n, int *keys, xq_move tt_move, int ply) {
    const xq_pos *p = &s->pos;
    for (int i = 0; i < n; i++) {
        xq_move m = moves[i];
        int victim = p->board[move_to(m)];
        if (m == tt_move) keys[i] = SCORE_TT;
        else if (victim) keys[i] = SCORE_CAPTURE + VALUE[victim & 7] * 16 - VALUE[p->board[move_from(m)] & 7] / 16;
        else if (ply < XQ_SEARCH_MAX_PLY && (m == s->killers[ply][0] || m == s->killers[ply][1]))
            keys[i] = SCORE_KILLER + (m == s->killers[ply][0]);
        else keys[i] = s->history[m];
    }
}

/* Moves the best-scored move of [i, n) to i (selection sort, one step). */
static xq_move pick(xq_move *moves, int *keys, int i, int n) {
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (keys[j] > keys[b]) b = j;
    xq_move m = moves[b];
    int k = keys[b];
    moves[b] = moves[i];
    keys[b] = keys[i];
    moves[i] = m;
    keys[i] = k;
    return m;
}

static void reward_quiet(xq_search *s, xq_move m, int depth, int ply) {
    if (ply < XQ_SEARCH_MAX_PLY && s->killers[ply][0] != m) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = m;
    }
    s->history[m] += depth * depth;
    if (s->history[m] > SCORE_KILLER / 2) {
        /* Age the counts so they never reach the killer and capture bands. */
        for (int i = 0; i < (int)(sizeof s->history / sizeof s->history[0]); i++) s->history[i] /= 2;
    }
}

/* -------------------------------------------------------------- search */

static void make(xq_search *s, xq_move m, xq_undo *u, int ply) {
    pos_do_move_fast(&s->pos, m, u);
    s->keys[s->n_keys + ply + 1] = s->pos.key;
    s->rep_floor[ply + 1] = s->rep_floor[ply];
}

static void make_null(xq_search *s, xq_undo *u, int ply) {
    xq_pos_do_null(&s->pos, u);
    s->keys[s->n_keys + ply + 1] = s->pos.key;
    s->rep_floor[ply + 1] = s->n_keys + ply + 1;
}

/* Whether capturing on `to` with the piece on `from` loses material at once:
   a more valuable piece taking a defended one. */
static int losing_capture(const xq_pos *p, xq_move m) {
    int from = move_from(m), to = move_to(m), them = p->side ^ 1;
    if (VALUE[p->board[from] & 7] <= VALUE[p->board[to] & 7] || (p->board[from] & 7) == XQ_KING) return 0;
    xq_bb occ = pos_occ(p) ^ SQ_BB[from];
    xq_bb rot = p->occ_rot ^ ROT_BB[from];
    return attacked_by(p, to, them, p->by_color[them] & ~SQ_BB[to], occ, rot);
}

static void set_pv(xq_search *s, int ply, xq_move m) {
    int child = ply + 1, n = s->pv_table_len[child];
    s->pv_table[ply][0] = m;
    if (n > XQ_SEARCH_MAX_PLY - 1) n = XQ_SEARCH_MAX_PLY - 1;
    memcpy(&s->pv_table[ply][1], s->pv_table[child], (size_t)n * sizeof(xq_move));
    s->pv_table_len[ply] = n + 1;
}

static int quiesce(xq_search *s, int alpha, int beta, int ply) {
    s->nodes++;
    s->pv_table_len[ply] = 0;
    if (ply > s->seldepth) s->seldepth = ply;
    if (out_of_budget(s)) return 0;
    xq_pos *p = &s->pos;
    if (ply >= XQ_SEARCH_MAX_PLY) return eval_pos(p);
    xq_move moves[XQ_MAX_MOVES];
    int keys[XQ_MAX_MOVES];
    int n = xq_gen_legal(p, moves, XQ_MAX_MOVES);
    if (n <= 0) return -XQ_MATE_SCORE + ply;
    int in_check = xq_pos_in_check(p);
    int best = -INF;
    if (!in_check) {
        /* Stand pat: the side to move need not capture. */
        best = eval_pos(p);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }
    score_moves(s, moves, n, keys, 0, XQ_SEARCH_MAX_PLY);
    for (int i = 0; i < n; i++) {
        xq_move m = pick(moves, keys, i, n);
        if (!in_check) {
            if (keys[i] < SCORE_CAPTURE) break;  /* only captures, unless evading check */
            /* Captures that cannot lift the score to alpha, or that lose the capturing piece. */
            if (best + VALUE[p->board[move_to(m)] & 7] + 200 <= alpha || losing_capture(p, m)) continue;
        }
        xq_undo u;
        make(s, m, &u, ply);
        int score = -quiesce(s, -beta, -alpha, ply + 1);
        pos_undo_move_fast(p, &u);
        if (s->aborted) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                set_pv(s, ply, m);
                if (score >= beta) break;
            }
        }
    }
    return best;
}

static int search(xq_search *s, int depth, int alpha, int beta, int ply, int allow_null) {
    xq_pos *p = &s->pos;
    int pv_node = beta - alpha > 1;
    s->pv_table_len[ply] = 0;
    if (ply > 0) {
        if (out_of_budget(s)) return 0;
        if (is_repetition(s, ply)) return DRAW;
        /* Mate-distance pruning: no line from here beats a mate already found nearer the root. */
        if (alpha < -XQ_MATE_SCORE + ply) alpha = -XQ_MATE_SCORE + ply;
        if (beta > XQ_MATE_SCORE - ply - 1) beta = XQ_MATE_SCORE - ply - 1;
        if (alpha >= beta) return alpha;
    }
    int in_check = xq_pos_in_check(p);
    if (in_check && ply + depth < XQ_SEARCH_MAX_PLY - 1) depth++;
    if (depth <= 0 || ply >= XQ_SEARCH_MAX_PLY - 1) return quiesce(s, alpha, beta, ply);
    s->nodes++;
    if (ply > s->seldepth) s->seldepth = ply;

    xq_move tt_move = 0;
    if (s->tt) {
        xq_tt_entry *e = tt_slot(s, p->key);
        if (e->key == p->key && e->bound != BOUND_NONE) {
            tt_move = e->move;
            int ts = score_from_tt(e->score, ply);
            if (ply > 0 && !pv_node && e->depth >= depth &&
                (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && ts >= beta) ||
                 (e->bound == BOUND_UPPER && ts <= alpha)))
                return ts;
        }
    }
    if (ply == 0 && s->best) tt_move = s->best;

    /* Null move: if passing still fails high, a real move will too (zugzwang
       is rare in xiangqi while a side has a rook, horse or cannon). */
    xq_bb attackers = p->by_color[p->side] & (p->by_type[XQ_ROOK] | p->by_type[XQ_HORSE] | p->by_type[XQ_CANNON]);
    if (allow_null && !pv_node && !in_check && depth >= 3 && attackers && beta < XQ_MATE_BOUND &&
        eval_pos(p) >= beta) {
        int r = depth >= 6 ? 3 : 2;
        xq_undo u;
        make_null(s, &u, ply);
        int score = -search(s, depth - 1 - r, -beta, -beta + 1, ply + 1, 0);
        xq_pos_undo_null(p, &u);
        if (s->aborted) return 0;
        if (score >= beta) return score > XQ_MATE_BOUND ? beta : score;
    }

    xq_move moves[XQ_MAX_MOVES];
    int keys[XQ_MAX_MOVES];
    int n;
    if (ply == 0 && s->n_root) {
        n = s->n_root > 0 ? s->n_root : 0;
        memcpy(moves, s->root_moves, (size_t)n * sizeof *moves);
    } else {
        n = xq_gen_legal(p, moves, XQ_MAX_MOVES);
    }
    if (n <= 0) return -XQ_MATE_SCORE + ply;
    score_moves(s, moves, n, keys, tt_move, ply);
    if (ply == 0 && !s->best) {
        /* A move to answer with even if the very first node hits a limit. */
        s->best = pick(moves, keys, 0, n);
        s->pv[0] = s->best;
        s->pv_len = 1;
    }

    int best = -INF, old_alpha = alpha;
    xq_move best_move = 0;
    for (int i = 0; i < n; i++) {
        xq_move m = pick(moves, keys, i, n);
        int quiet = !p->board[move_to(m)];
        xq_undo u;
        make(s, m, &u, ply);
        int score;
        if (i == 0) {
            score = -search(s, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            /* Late quiet moves that do not check are searched shallower first. */
            int r = 0;
            if (depth >= 3 && i >= 3 && quiet && !in_check && keys[i] < SCORE_KILLER && !xq_pos_in_check(p))
                r = i >= 8 && depth >= 6 ? 2 : 1;
            score = -search(s, depth - 1 - r, -alpha - 1, -alpha, ply + 1, 1);
            if (r && score > alpha && !s->aborted) score = -search(s, depth - 1, -alpha - 1, -alpha, ply + 1, 1);
            if (score > alpha && score < beta && !s->aborted) score = -search(s, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        pos_undo_move_fast(p, &u);
        if (s->aborted) return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                set_pv(s, ply, m);
                if (ply == 0) {
                    s->best = m;
                    s->score = score;
                    s->pv_len = s->pv_table_len[0];
                    memcpy(s->pv, s->pv_table[0], (size_t)s->pv_len * sizeof(xq_move));
                }
                if (score >= beta) {
                    if (quiet) reward_quiet(s, m, depth, ply);
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s, p->key, depth, best, bound, best_move, ply);
    return best;
}

int xq_search_depth(xq_search *s, int depth) {
    if (!s || s->ready != XQ_SEARCH_READY || depth < 1 || depth > XQ_SEARCH_MAX_PLY - 4) return XQ_E_ARG;
    if (s->n_keys < 0 || s->n_keys > XQ_SEARCH_HISTORY_MAX || (s->tt_size && !s->tt)) return XQ_E_ARG;
    s->depth = depth;
    if (s->aborted) return XQ_SEARCH_STOPPED;
    int legal = s->n_root ? (s->n_root > 0) : xq_count_legal(&s->pos) > 0;
    if (!legal) {
        s->best = 0;
        s->pv_len = 0;
        s->score = -XQ_MATE_SCORE;
        return XQ_OK;
    }
    xq_pos saved = s->pos;
    s->rep_floor[0] = 0;
    int score = search(s, depth, -INF, INF, 0, 1);
    if (s->aborted) {
        /* The position is restored move by move as the search unwinds; the
           copy only guards against a bug leaving it changed. */
        s->pos = saved;
        return XQ_SEARCH_STOPPED;
    }
    s->score = score;
    return XQ_OK;
}
