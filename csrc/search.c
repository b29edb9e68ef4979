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

/* Game phase from the attacking pieces left: PHASE_MAX with all of them,
   0 with none; middle-game and endgame terms are blended by it. */
#define PHASE_MAX 32
static const int PHASE_WEIGHT[8] = {0, 0, 0, 0, 2, 2, 4, 0};
/* Endgame values where they differ from VALUE (cannons lose screens,
   horses gain room, guards matter less). */
static const int VALUE_EG[8] = {0, 120, 160, 160, 430, 400, 900, 0};

static int eval_pos(const xq_pos *p) {
    int mg[2] = {0, 0}, eg[2] = {0, 0}, phase = 0;
    xq_bb occ = pos_occ(p), rot = p->occ_rot, left = occ;
    int attackers[2] = {0, 0}, guards[2] = {0, 0};
    while (left) {
        int s = bb_pop_lsb(&left);
        int pc = p->board[s], c = pc >> 3, t = pc & 7;
        int r = RANK_OF[s];
        if (c == XQ_BLACK) r = 9 - r;
        int pst = piece_square(t, r, FILE_OF[s]);
        phase += PHASE_WEIGHT[t];
        mg[c] += VALUE[t] + pst;
        eg[c] += VALUE_EG[t] + (t == XQ_PAWN ? pst + pst / 4 : pst);
        switch (t) {
        case XQ_ROOK: {
            /* Mobility: squares it reaches (empty or enemy). */
            int mob = bb_popcount(rook_att(s, occ, rot) & ~p->by_color[c]);
            mg[c] += 4 * (mob - 7);
            eg[c] += 5 * (mob - 7);
            attackers[c] += 2;
            break;
        }
        case XQ_HORSE: {
            int mob = bb_popcount(horse_att(s, occ) & ~p->by_color[c]);
            mg[c] += 8 * (mob - 3);
            eg[c] += 8 * (mob - 3);
            if (r >= 5) attackers[c]++;
            break;
        }
        case XQ_CANNON: {
            int mob = bb_popcount(rook_att(s, occ, rot) & ~occ);
            mg[c] += 2 * (mob - 6);
            eg[c] += 2 * (mob - 6);
            attackers[c]++;
            /* A cannon facing the enemy king on an open file (空头炮) pins its defence. */
            int ks = p->king_sq[c ^ 1];
            if (FILE_OF[s] == FILE_OF[ks] && !(BETWEEN[s][ks] & occ)) {
                mg[c] += 70;
                eg[c] += 20;
            }
            break;
        }
        case XQ_PAWN:
            if (r >= 5) attackers[c]++;
            break;
        case XQ_ADVISOR: case XQ_ELEPHANT:
            guards[c]++;
            break;
        default:
            break;
        }
    }
    /* King safety: missing guards hurt in proportion to the enemy's attackers. */
    for (int c = 0; c < 2; c++) {
        int missing = 4 - guards[c], a = attackers[c ^ 1];
        mg[c] -= missing * a * 4;
    }
    if (phase > PHASE_MAX) phase = PHASE_MAX;
    int us = p->side, them = us ^ 1;
    int m = mg[us] - mg[them], e = eg[us] - eg[them];
    return (m * phase + e * (PHASE_MAX - phase)) / PHASE_MAX;
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
    s->facts_flags = 0;
    s->verdict_flags = XQ_RULE_SAME_VICTIM;
    s->natural_limit = XQ_SEARCH_NATURAL_LIMIT;
    s->tt = tt_size ? tt : NULL;
    s->tt_size = tt_size;
    return XQ_OK;
}

int xq_search_begin(xq_search *s, const xq_pos *pos, const xq_undo *undos, int n_undos,
                    const xq_move *root_moves, int n_root) {
    if (!s || !pos || n_undos < 0 || n_root < 0 || (n_undos && !undos) || (n_root && !root_moves)) return XQ_E_ARG;
    if (xq_pos_check(pos) != XQ_OK) return XQ_E_FEN_POSITION;
    s->pos = *pos;
    int skip = n_undos > XQ_SEARCH_HISTORY_MAX ? n_undos - XQ_SEARCH_HISTORY_MAX : 0;
    s->n_keys = n_undos - skip;
    if (s->n_keys) memcpy(s->undos, undos + skip, (size_t)s->n_keys * sizeof *undos);
    for (int i = 0; i < s->n_keys; i++) s->keys[i] = s->undos[i].key;
    s->keys[s->n_keys] = pos->key;
    /* The checks of the game since its last capture, for the natural limit
       (records that do not fit the position count none). */
    int known = pos->halfmove < s->n_keys ? pos->halfmove : s->n_keys;
    s->root_checks[0] = s->root_checks[1] = 0;
    if (known > 0 && xq_history_checks(pos, s->undos, s->n_keys, s->n_keys - known, s->n_keys, s->root_checks) != XQ_OK)
        s->root_checks[0] = s->root_checks[1] = 0;
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

/* How many plies back the position at `ply` occurred before with the same
   side to move since the last capture (on the path or in the game), the
   nearest occurrence at least `from` plies back; 0 when it did not. */
static int repetition_back(const xq_search *s, int ply, int from) {
    int idx = s->n_keys + ply;
    uint64_t key = s->keys[idx];
    /* Not across a null move: the positions before it are not of this line. */
    int span = idx - s->rep_floor[ply];
    int reach = s->pos.halfmove < span ? s->pos.halfmove : span;
    for (int back = from; back <= reach; back += 2)
        if (s->keys[idx - back] == key) return back;
    return 0;
}

/* Returned by judge_loop for a loop that ends nothing yet. */
#define LOOP_OPEN (INF + 1)

/* The score, for the side to move at `ply`, of the loop closed there by a
   position seen `back` plies earlier: the rulings' verdict on the loop's
   moves (s->undos). A loss for the side that closed it scores as a mate at
   this ply; a loop that draws, a draw. A loss for the side to move is
   LOOP_OPEN at the position's second occurrence: the loop was closed by
   the other side's move, and the side that breaks the rule has not
   repeated yet and may still vary (playing its loop move again closes a
   loop of its own, judged a ply later). At the third occurrence the game
   is judged whoever closed it: a loss. */
static int judge_loop(xq_search *s, int ply, int back) {
    int idx = s->n_keys + ply;
    int us = s->pos.side;
    /* A loop is its last position and its moves: the same loop met again
       (a transposition, the next iteration) takes its verdict from the cache. */
    uint64_t h = s->pos.key ^ ((uint64_t)(unsigned)s->verdict_flags << 32 | (unsigned)s->facts_flags) * 0x9E3779B97F4A7C15u;
    for (int i = idx - back; i < idx; i++) h = (h ^ s->undos[i].move) * 0xBF58476D1CE4E5B9u ^ (h >> 31);
    h |= 1;
    xq_loop_cache_entry *cached = &s->loop_cache[h & (XQ_SEARCH_LOOP_CACHE - 1)];
    int loser;
    if (cached->key == h) {
        loser = cached->loser;
    } else {
        if (xq_repetition_loops(&s->pos, &s->undos[idx - back], back, 2, s->facts_flags, s->loops) < 0) return DRAW;
        const xq_rep_info *r = &s->loops[back];
        if (r->loop_start != 0) return DRAW; /* cannot happen: position `back` is the second occurrence of 0 */
        /* The rulings' one verdict (xq_loop_verdict), as Board.outcome, judge and validation reach it. */
        int v = xq_loop_verdict(r->loop[XQ_RED] | r->loop_more[XQ_RED] << 8,
                                r->loop[XQ_BLACK] | r->loop_more[XQ_BLACK] << 8, s->verdict_flags);
        loser = v & 2 ? v & 1 : -1;
        cached->key = h;
        cached->loser = (int8_t)loser;
    }
    if (loser < 0) return DRAW;
    if (loser != us) return XQ_MATE_SCORE - ply;
    return repetition_back(s, ply, back + 2) ? -XQ_MATE_SCORE + ply : LOOP_OPEN;
}

/* Whether the position at `ply` is a draw by the natural move limit: at
   least natural_limit plies since the last capture, a side's checks beyond
   ten not counted (two plies each), for one side at least. */
static int natural_draw(const xq_search *s, int ply) {
    int plies = s->pos.halfmove;
    if (!s->natural_limit || plies < s->natural_limit) return 0;
    int checks[2] = {0, 0};
    int from = ply - plies > 0 ? ply - plies : 0;
    if (from == 0) {
        checks[0] = s->root_checks[0];
        checks[1] = s->root_checks[1];
    }
    /* The move into ply i was made by the side not to move at ply i. */
    for (int i = from + 1; i <= ply; i++)
        if (s->in_check[i]) checks[s->pos.side ^ ((ply - i) & 1) ^ 1]++;
    for (int c = 0; c < 2; c++) {
        int extra = checks[c] > 10 ? checks[c] - 10 : 0;
        if (plies - 2 * extra >= s->natural_limit) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ ordering */

/* Static exchange evaluation of the capture m: the material the mover nets
   when both sides take back on the target square with their least valuable
   attacker (pins ignored, a king recaptures only where nothing recaptures
   it), each side free to stop. */
static const int SEE_VALUE[8] = {0, 100, 200, 200, 400, 450, 900, 20000};

static int see(const xq_pos *p, xq_move m) {
    int from = move_from(m), to = move_to(m);
    int gain[40], d = 0;
    xq_bb occ = pos_occ(p) ^ SQ_BB[from], rot = p->occ_rot ^ ROT_BB[from];
    gain[0] = SEE_VALUE[p->board[to] & 7];
    int on_target = p->board[from] & 7, side = p->side ^ 1;
    for (;;) {
        xq_bb att = attackers_bb(p, to, side, occ, rot) & occ & ~SQ_BB[to];
        if (!att) break;
        int sq = -1, t;
        for (t = XQ_PAWN; t <= XQ_KING && sq < 0; t++) {
            xq_bb b = att & p->by_type[t];
            if (b) sq = bb_lsb(b);
        }
        t--;
        if (t == XQ_KING && (attackers_bb(p, to, side ^ 1, occ ^ SQ_BB[sq], rot ^ ROT_BB[sq]) & (occ ^ SQ_BB[sq]) &
                             ~SQ_BB[to]))
            break;  /* the king may not step into a recapture */
        d++;
        gain[d] = SEE_VALUE[on_target] - gain[d - 1];
        if (d >= 38) break;
        on_target = t;
        occ ^= SQ_BB[sq];
        rot ^= ROT_BB[sq];
        side ^= 1;
    }
    while (d > 0) {
        if (-gain[d] < gain[d - 1]) gain[d - 1] = -gain[d];
        d--;
    }
    return gain[0];
}

#define SCORE_TT (1 << 30)
#define SCORE_CAPTURE (1 << 28)
#define SCORE_KILLER (1 << 27)
#define SCORE_BAD_CAPTURE (-(1 << 27))  /* captures that lose material: after every quiet move */
#define HISTORY_MAX 16384

static void score_moves(const xq_search *s, const xq_move *moves, int n, int *keys, xq_move tt_move, int ply) {
    const xq_pos *p = &s->pos;
    for (int i = 0; i < n; i++) {
        xq_move m = moves[i];
        int victim = p->board[move_to(m)], attacker = p->board[move_from(m)] & 7;
        if (m == tt_move) keys[i] = SCORE_TT;
        else if (victim) {
            int mvv = VALUE[victim & 7] * 16 - VALUE[attacker] / 16;
            int bad = SEE_VALUE[attacker] > SEE_VALUE[victim & 7] && see(p, m) < 0;
            keys[i] = (bad ? SCORE_BAD_CAPTURE : SCORE_CAPTURE) + mvv;
        } else if (ply < XQ_SEARCH_MAX_PLY && (m == s->killers[ply][0] || m == s->killers[ply][1]))
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

/* History with gravity: counts stay within +-HISTORY_MAX, far below the
   killer and capture bands. */
static void history_add(xq_search *s, xq_move m, int bonus) {
    int32_t *h = &s->history[m];
    int a = bonus < 0 ? -bonus : bonus;
    *h += bonus - *h * a / HISTORY_MAX;
}

static void reward_quiet(xq_search *s, xq_move m, int depth, int ply, const xq_move *tried, int n_tried) {
    if (ply < XQ_SEARCH_MAX_PLY && s->killers[ply][0] != m) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = m;
    }
    int bonus = depth * depth * 16;
    if (bonus > HISTORY_MAX / 2) bonus = HISTORY_MAX / 2;
    history_add(s, m, bonus);
    for (int i = 0; i < n_tried; i++)
        if (tried[i] != m) history_add(s, tried[i], -bonus);
}

/* -------------------------------------------------------------- search */

/* Plays m at ply, its undo record kept in s->undos for the rulings. */
static xq_undo *make(xq_search *s, xq_move m, int ply) {
    xq_undo *u = &s->undos[s->n_keys + ply];
    pos_do_move_fast(&s->pos, m, u);
    s->keys[s->n_keys + ply + 1] = s->pos.key;
    s->rep_floor[ply + 1] = s->rep_floor[ply];
    return u;
}

static xq_undo *make_null(xq_search *s, int ply) {
    xq_undo *u = &s->undos[s->n_keys + ply];
    xq_pos_do_null(&s->pos, u);
    s->keys[s->n_keys + ply + 1] = s->pos.key;
    s->rep_floor[ply + 1] = s->n_keys + ply + 1;
    return u;
}

static void set_pv(xq_search *s, int ply, xq_move m) {
    int child = ply + 1, n = s->pv_table_len[child];
    s->pv_table[ply][0] = m;
    if (n > XQ_SEARCH_MAX_PLY - 1) n = XQ_SEARCH_MAX_PLY - 1;
    memcpy(&s->pv_table[ply][1], s->pv_table[child], (size_t)n * sizeof(xq_move));
    s->pv_table_len[ply] = n + 1;
}

/* The legal captures of the side to move (not in check): each piece's
   targets among the enemy pieces but the king, kept when the own king is
   then safe (as the legal generator tests a move). */
static int gen_captures(const xq_pos *p, xq_move *out) {
    int us = p->side, them = us ^ 1, ksq = p->king_sq[us], n = 0;
    xq_bb occ = pos_occ(p), rot = p->occ_rot;
    xq_bb enemy = p->by_color[them] & ~SQ_BB[p->king_sq[them]];
    xq_bb pieces = p->by_color[us];
    while (pieces) {
        int from = bb_pop_lsb(&pieces);
        xq_bb t;
        switch (p->board[from] & 7) {
        case XQ_PAWN: t = PAWN_ATT[us][from]; break;
        case XQ_ADVISOR: t = ADVISOR_ATT[us][from]; break;
        case XQ_ELEPHANT: t = elephant_att(us, from, occ); break;
        case XQ_HORSE: t = horse_att(from, occ); break;
        case XQ_CANNON: t = cannon_cap(from, occ, rot); break;
        case XQ_ROOK: t = rook_att(from, occ, rot); break;
        case XQ_KING: t = KING_ATT[us][from]; break;
        default: t = 0; break;
        }
        t &= enemy;
        while (t) {
            int to = bb_pop_lsb(&t);
            xq_bb occ2 = occ ^ SQ_BB[from], rot2 = rot ^ ROT_BB[from];
            if (!attacked_by(p, from == ksq ? to : ksq, them, p->by_color[them] & ~SQ_BB[to], occ2, rot2))
                out[n++] = make_move(from, to);
        }
    }
    return n;
}

/* Whether the quiet move m may check the enemy king: it leaves or reaches
   the king's file or rank, lands a horse's jump or a pawn's step from it,
   or frees a horse's leg next to it (a cheap filter before the real test). */
static int may_check(const xq_pos *p, xq_move m) {
    int from = move_from(m), to = move_to(m), ks = p->king_sq[p->side ^ 1];
    int kf = FILE_OF[ks], kr = RANK_OF[ks];
    if (FILE_OF[from] == kf || RANK_OF[from] == kr || FILE_OF[to] == kf || RANK_OF[to] == kr) return 1;
    int df = FILE_OF[to] - kf, dr = RANK_OF[to] - kr, t = p->board[from] & 7;
    if (t == XQ_HORSE && df * df + dr * dr == 5) return 1;
    int lf = FILE_OF[from] - kf, lr = RANK_OF[from] - kr;
    return lf * lf == 1 && lr * lr == 1;  /* a horse leg diagonal to the king */
}

static int quiesce(xq_search *s, int alpha, int beta, int ply, int checks) {
    s->nodes++;
    s->pv_table_len[ply] = 0;
    if (ply > s->seldepth) s->seldepth = ply;
    if (out_of_budget(s)) return 0;
    xq_pos *p = &s->pos;
    if (ply >= XQ_SEARCH_MAX_PLY) return eval_pos(p);
    xq_move moves[XQ_MAX_MOVES];
    int keys[XQ_MAX_MOVES];
    int in_check = xq_pos_in_check(p);
    int best = -INF, n;
    if (in_check) {
        /* Every evasion; none is a mate. */
        n = xq_gen_legal(p, moves, XQ_MAX_MOVES);
        if (n <= 0) return -XQ_MATE_SCORE + ply;
    } else {
        /* Stand pat: the side to move need not capture (a stalemate here goes unseen). */
        best = eval_pos(p);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
        n = checks ? xq_gen_legal(p, moves, XQ_MAX_MOVES) : gen_captures(p, moves);
    }
    score_moves(s, moves, n, keys, 0, XQ_SEARCH_MAX_PLY);
    for (int i = 0; i < n; i++) {
        xq_move m = pick(moves, keys, i, n);
        int child_check = -1;
        if (!in_check) {
            if (p->board[move_to(m)]) {
                /* Only captures that do not lose material, unless evading check. */
                if (keys[i] < SCORE_CAPTURE) {
                    if (checks) continue;
                    break;
                }
                /* Captures that cannot lift the score to alpha. */
                if (best + VALUE[p->board[move_to(m)] & 7] + 200 <= alpha) continue;
            } else {
                /* At the first ply of quiescence, quiet moves that check and lose nothing by exchange. */
                if (!may_check(p, m) || see(p, m) < 0) continue;
                xq_undo *u = make(s, m, ply);
                child_check = xq_pos_in_check(p);
                pos_undo_move_fast(p, u);
                if (!child_check) continue;
            }
        }
        xq_undo *u = make(s, m, ply);
        int score = -quiesce(s, -beta, -alpha, ply + 1, 0);
        pos_undo_move_fast(p, u);
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

/* Late-move reduction by depth and move number (~ log(depth) * log(i) / 2). */
static int lmr(int depth, int i) {
    static const uint8_t LOG2X[65] = {0, 0, 4, 6, 8, 9, 10, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 16, 16, 17,
                                      17, 17, 17, 18, 18, 18, 18, 18, 19, 19, 19, 19, 19, 19, 19, 20, 20, 20, 20, 20,
                                      20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 22,
                                      22, 22, 23, 23};  /* ~ 4 * log2(x) */
    int d = depth > 64 ? 64 : depth, k = i > 64 ? 64 : i;
    return (LOG2X[d] * LOG2X[k]) / 48;
}

static int search(xq_search *s, int depth, int alpha, int beta, int ply, int allow_null) {
    xq_pos *p = &s->pos;
    int pv_node = beta - alpha > 1;
    s->pv_table_len[ply] = 0;
    /* The parent found whether its move checks (s->in_check[ply]); the root asks. */
    int in_check = ply > 0 ? s->in_check[ply] : xq_pos_in_check(p);
    s->in_check[ply] = (uint8_t)in_check;
    if (ply > 0) {
        if (out_of_budget(s)) return 0;
        int back = repetition_back(s, ply, 4);
        if (back) {
            int verdict = judge_loop(s, ply, back);
            if (verdict != LOOP_OPEN) return verdict;
        }
        if (natural_draw(s, ply)) return DRAW;
        /* Mate-distance pruning: no line from here beats a mate already found nearer the root. */
        if (alpha < -XQ_MATE_SCORE + ply) alpha = -XQ_MATE_SCORE + ply;
        if (beta > XQ_MATE_SCORE - ply - 1) beta = XQ_MATE_SCORE - ply - 1;
        if (alpha >= beta) return alpha;
    }
    if (in_check && ply + depth < XQ_SEARCH_MAX_PLY - 1) depth++;
    if (depth <= 0 || ply >= XQ_SEARCH_MAX_PLY - 1) return quiesce(s, alpha, beta, ply, 1);
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
    /* Internal iterative reduction: a node the table knows nothing about is searched a ply shallower. */
    if (!tt_move && depth >= 4 && ply > 0) depth--;

    int static_eval = in_check ? -INF : eval_pos(p);
    s->evals[ply] = static_eval;
    int improving = !in_check && ply >= 2 && static_eval > s->evals[ply - 2];

    if (!pv_node && !in_check && beta < XQ_MATE_BOUND && beta > -XQ_MATE_BOUND) {
        /* Reverse futility: far above beta near the leaves, a quiet move will not fall below it. */
        if (depth <= 4 && static_eval - 110 * (depth - improving) >= beta) return static_eval;
        /* Null move: if passing still fails high, a real move will too (zugzwang
           is rare in xiangqi while a side has a rook, horse or cannon). */
        xq_bb attackers = p->by_color[p->side] & (p->by_type[XQ_ROOK] | p->by_type[XQ_HORSE] | p->by_type[XQ_CANNON]);
        if (allow_null && depth >= 2 && attackers && static_eval >= beta) {
            int r = 3 + depth / 4 + ((static_eval - beta) / 200 < 2 ? (static_eval - beta) / 200 : 2);
            xq_undo *u = make_null(s, ply);
            s->in_check[ply + 1] = 0;  /* a legal position never leaves the passed-to side in check */
            int score = -search(s, depth - 1 - r, -beta, -beta + 1, ply + 1, 0);
            xq_pos_undo_null(p, u);
            if (s->aborted) return 0;
            if (score >= beta) return score > XQ_MATE_BOUND ? beta : score;
        }
    }

    xq_move moves[XQ_MAX_MOVES], tried[XQ_MAX_MOVES];
    int keys[XQ_MAX_MOVES];
    int n, n_tried = 0;
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

    int best = -INF, old_alpha = alpha, quiets = 0;
    xq_move best_move = 0;
    for (int i = 0; i < n; i++) {
        xq_move m = pick(moves, keys, i, n);
        int quiet = !p->board[move_to(m)];
        xq_undo *u = make(s, m, ply);
        int gives_check = xq_pos_in_check(p);
        s->in_check[ply + 1] = (uint8_t)gives_check;
        int plain = quiet && !in_check && !gives_check && keys[i] < SCORE_KILLER;
        if (ply > 0 && plain && best > -XQ_MATE_BOUND) {
            /* Late-move pruning and futility pruning of quiet moves near the leaves. */
            if ((depth <= 4 && quiets >= 3 + depth * depth * (1 + improving)) ||
                (depth <= 3 && static_eval + 90 + 110 * depth <= alpha)) {
                pos_undo_move_fast(p, u);
                continue;
            }
        }
        if (ply > 0 && !pv_node && !in_check && !gives_check && depth <= 3 && keys[i] < SCORE_KILLER && !quiet &&
            best > -XQ_MATE_BOUND) {
            /* A losing capture near the leaves. */
            pos_undo_move_fast(p, u);
            continue;
        }
        if (quiet) {
            quiets++;
            if (n_tried < XQ_MAX_MOVES) tried[n_tried++] = m;
        }
        int score;
        if (i == 0) {
            score = -search(s, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            /* Late quiet moves that do not check are searched shallower first. */
            int r = 0;
            if (depth >= 3 && i >= 2 && plain) {
                r = lmr(depth, i) + !improving - pv_node - (s->history[m] > HISTORY_MAX / 4);
                if (r < 0) r = 0;
                if (r > depth - 2) r = depth - 2;
            }
            score = -search(s, depth - 1 - r, -alpha - 1, -alpha, ply + 1, 1);
            if (r && score > alpha && !s->aborted) score = -search(s, depth - 1, -alpha - 1, -alpha, ply + 1, 1);
            if (score > alpha && score < beta && !s->aborted) score = -search(s, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        pos_undo_move_fast(p, u);
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
                    if (quiet) reward_quiet(s, m, depth, ply, tried, n_tried);
                    break;
                }
            }
        }
    }
    if (best == -INF) return alpha;  /* every move pruned (cannot happen: the first is always searched) */
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
    /* Aspiration: from depth 4, a window around the last depth's score,
       widened on the side that fails. */
    int delta = 35, alpha = -INF, beta = INF, prev = s->score;
    if (depth >= 4 && s->best && prev > -XQ_MATE_BOUND && prev < XQ_MATE_BOUND) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    int score;
    for (;;) {
        score = search(s, depth, alpha, beta, 0, 1);
        if (s->aborted) break;
        if (score <= alpha) {
            alpha = delta > 500 || score - delta < -INF ? -INF : score - delta;
        } else if (score >= beta) {
            beta = delta > 500 || score + delta > INF ? INF : score + delta;
        } else {
            break;
        }
        delta *= 2;
    }
    if (s->aborted) {
        /* The position is restored move by move as the search unwinds; the
           copy only guards against a bug leaving it changed. */
        s->pos = saved;
        return XQ_SEARCH_STOPPED;
    }
    s->score = score;
    return XQ_OK;
}
