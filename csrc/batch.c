/*
 * batch.c - array-in / array-out loops over many positions: packed records,
 * the move index, and the batch functions of xq_batch.h.
 */
#include "xq_internal.h"

/* ---------------------------------------------------------- packed record */

int xq_pos_pack(const xq_pos *p, uint8_t *out) {
    if (!p || !out) return XQ_E_ARG;
    for (int k = 0; k < 45; k++)
        out[k] = (uint8_t)((p->board[2 * k] & 15) | (p->board[2 * k + 1] & 15) << 4);
    out[45] = p->side == XQ_RED ? 1 : 0;
    out[46] = (uint8_t)(p->halfmove & 255);
    out[47] = (uint8_t)(p->halfmove >> 8);
    for (int k = 0; k < 4; k++) out[48 + k] = (uint8_t)(p->fullmove >> (8 * k));
    return XQ_OK;
}

/* Most pieces of each type one side may have (as xq_pos_check allows). */
static const uint8_t MAX_OF_TYPE[8] = {0, 5, 2, 2, 2, 2, 2, 1};

/* Bit k set when byte k of v is nonzero (8 bytes -> 8 bits). */
static inline unsigned nonzero_bytes(uint64_t v) {
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t t = (((v & low7) + low7) | v) & ~low7;       /* 0x80 in each nonzero byte */
    return (unsigned)(((t >> 7) * 0x0102040810204080ULL) >> 56);
}

/* Adds piece pc (code 1-15) on square s, already written to p->board, to
   the bitboards, the key and the piece counts of a position being built. */
static inline void place(xq_pos *p, int pc, int s, uint8_t count[16], uint64_t *key) {
    count[pc]++;
    p->by_color[pc >> 3] |= SQ_BB[s];
    p->by_type[pc & 7] |= SQ_BB[s];
    p->occ_rot |= ROT_BB[s];
    *key ^= ZOBRIST[pc][s];
}

/* Checks the piece counts as xq_pos_check does (one king each, at most 5
   pawns and 2 of each other type a side, no code 8), then sets the king
   squares and the key.  Returns XQ_OK or XQ_E_FEN_POSITION. */
static int finish(xq_pos *p, const uint8_t count[16], uint64_t key) {
    if (count[8] || count[XQ_KING] != 1 || count[8 | XQ_KING] != 1) return XQ_E_FEN_POSITION;
    for (int t = 1; t < 7; t++)
        if (count[t] > MAX_OF_TYPE[t] || count[8 | t] > MAX_OF_TYPE[t]) return XQ_E_FEN_POSITION;
    p->king_sq[XQ_BLACK] = (uint8_t)bb_lsb(p->by_color[XQ_BLACK] & p->by_type[XQ_KING]);
    p->king_sq[XQ_RED] = (uint8_t)bb_lsb(p->by_color[XQ_RED] & p->by_type[XQ_KING]);
    p->key = p->side == XQ_RED ? key : key ^ ZOBRIST_SIDE;
    return XQ_OK;
}

int xq_pos_unpack(xq_pos *pos, const uint8_t *in) {
    if (!pos || !in) return XQ_E_ARG;
    uint32_t fullmove = (uint32_t)in[48] | (uint32_t)in[49] << 8 | (uint32_t)in[50] << 16 | (uint32_t)in[51] << 24;
    if (in[45] > 1 || fullmove == 0 || fullmove > XQ_FULLMOVE_MAX) return XQ_E_FEN_POSITION;
    xq_pos p;
    memset(&p, 0, sizeof p);
    for (int k = 0; k < 45; k++) {
        p.board[2 * k] = in[k] & 15;
        p.board[2 * k + 1] = in[k] >> 4;
    }
    /* The occupied squares from the codes, eight at a time, then one pass over them. */
    xq_bb occ = (xq_bb)(p.board[88] != 0) << 88 | (xq_bb)(p.board[89] != 0) << 89;
    for (int s = 0; s < 88; s += 8) {
        uint64_t v;
        memcpy(&v, p.board + s, 8);
        occ |= (xq_bb)nonzero_bytes(v) << s;
    }
    uint8_t count[16] = {0};
    uint64_t key = 0;
    while (occ) {
        int s = bb_pop_lsb(&occ);
        place(&p, p.board[s], s, count, &key);
    }
    p.side = in[45] ? XQ_RED : XQ_BLACK;
    p.halfmove = (uint16_t)(in[46] | in[47] << 8);
    p.fullmove = fullmove;
    int st = finish(&p, count, key);
    if (st == XQ_OK) *pos = p;
    return st;
}

/* ---------------------------------------------------------------- FEN input */

static const uint8_t FEN_CODE[256] = {
    ['p'] = 1, ['a'] = 2, ['b'] = 3, ['e'] = 3, ['n'] = 4, ['h'] = 4, ['c'] = 5, ['r'] = 6, ['k'] = 7,
    ['P'] = 9, ['A'] = 10, ['B'] = 11, ['E'] = 11, ['N'] = 12, ['H'] = 12, ['C'] = 13, ['R'] = 14, ['K'] = 15,
};

/* Reads " <digits>" (1-9 digits) at s[*i]; -1 if not there. */
static long read_number(const char *s, size_t len, size_t *i) {
    size_t j = *i;
    if (j >= len || s[j] != ' ') return -1;
    j++;
    size_t start = j;
    long v = 0;
    while (j < len && s[j] >= '0' && s[j] <= '9' && j - start < 9) v = v * 10 + (s[j++] - '0');
    if (j == start || (j < len && s[j] != ' ')) return -1;
    *i = j;
    return v;
}

/* A one-pass reader for the common FEN shapes ("<board>", "<board> w",
   "<board> w - - 0 1", "<board> w 0 1") into a zeroed position.  Returns 1
   with *p complete, or 0 for anything else (including every error), which
   xq_pos_set_fen then decides: it stays the one authority on FEN syntax and
   on every error status. */
static int fen_fast(const char *s, size_t len, xq_pos *p) {
    size_t i = 0;
    int rank = 9, file = 0;
    uint8_t count[16] = {0};
    uint64_t key = 0;
    for (; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '/') {
            if (file != 9 || rank == 0) return 0;
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > 9) return 0;
        } else if (FEN_CODE[c]) {
            if (file >= 9) return 0;
            int sq = rank * 9 + file++;
            p->board[sq] = FEN_CODE[c];
            place(p, FEN_CODE[c], sq, count, &key);
        } else {
            break;
        }
    }
    if (rank != 0 || file != 9) return 0;
    p->side = XQ_RED;
    p->halfmove = 0;
    p->fullmove = 1;
    if (i < len) {
        if (len - i < 2 || s[i] != ' ') return 0;
        switch (s[i + 1]) {
        case 'w': case 'W': case 'r': case 'R': p->side = XQ_RED; break;
        case 'b': case 'B': p->side = XQ_BLACK; break;
        default: return 0;
        }
        i += 2;
        if (len - i >= 4 && memcmp(s + i, " - -", 4) == 0) i += 4;
        if (i < len) {
            long half = read_number(s, len, &i), full = read_number(s, len, &i);
            if (half < 0 || half > 65535 || full < 1 || full > (long)XQ_FULLMOVE_MAX || i != len) return 0;
            p->halfmove = (uint16_t)half;
            p->fullmove = (uint32_t)full;
        }
    }
    return finish(p, count, key) == XQ_OK;
}

static int load_fen(const char *s, size_t len, xq_pos *out) {
    xq_pos p;
    memset(&p, 0, sizeof p);
    if (fen_fast(s, len, &p)) {
        *out = p;
        return XQ_OK;
    }
    return xq_pos_set_fen(out, s, len, NULL);
}

/* ------------------------------------------------------------- move index */

static int16_t INDEX_OF[1 << 14];          /* move code -> index, -1 if none */
static xq_move MOVE_OF[XQ_MOVE_INDEX_NB];  /* index -> move code */
static int index_state;                    /* 0 = not built, 1 = building, 2 = ready */

static int in_palace_sq(int r, int f) { return f >= 3 && f <= 5 && (r <= 2 || r >= 7); }
static int is_palace_center(int r, int f) { return f == 4 && (r == 1 || r == 8); }

static int is_elephant_sq(int r, int f) {
    if (r >= 5) r = 9 - r;
    return (r == 0 && (f == 2 || f == 6)) || (r == 2 && (f == 0 || f == 4 || f == 8)) ||
           (r == 4 && (f == 2 || f == 6));
}

/* Could some piece ever move from (r1, f1) to (r2, f2)? */
static int move_possible(int r1, int f1, int r2, int f2) {
    int dr = r2 > r1 ? r2 - r1 : r1 - r2, df = f2 > f1 ? f2 - f1 : f1 - f2;
    if ((dr == 0) != (df == 0)) return 1;                               /* rook line */
    if ((dr == 1 && df == 2) || (dr == 2 && df == 1)) return 1;         /* horse */
    int same_half = (r1 <= 4) == (r2 <= 4);
    if (dr == 1 && df == 1)  /* advisor: between the palace centre and a corner */
        return same_half && in_palace_sq(r1, f1) && in_palace_sq(r2, f2) &&
               (is_palace_center(r1, f1) || is_palace_center(r2, f2));
    if (dr == 2 && df == 2) return same_half && is_elephant_sq(r1, f1) && is_elephant_sq(r2, f2);
    return 0;
}

static void build_index(void) {
    int n = 0;
    for (int i = 0; i < (1 << 14); i++) INDEX_OF[i] = -1;
    for (int from = 0; from < 90; from++)
        for (int to = 0; to < 90; to++)
            if (move_possible(from / 9, from % 9, to / 9, to % 9) && n < XQ_MOVE_INDEX_NB) {
                INDEX_OF[from << 7 | to] = (int16_t)n;
                MOVE_OF[n++] = make_move(from, to);
            }
}

/* Builds the tables once, safely when several threads get here together. */
static void ensure_index(void) {
    if (__atomic_load_n(&index_state, __ATOMIC_ACQUIRE) == 2) return;
    int expected = 0;
    if (__atomic_compare_exchange_n(&index_state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        build_index();
        __atomic_store_n(&index_state, 2, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&index_state, __ATOMIC_ACQUIRE) != 2) {
        /* another thread is building (a few microseconds) */
    }
}

int xq_move_index(xq_move m) {
    ensure_index();
    return m >> 14 ? -1 : INDEX_OF[m];
}

xq_move xq_move_index_move(int i) {
    ensure_index();
    return i >= 0 && i < XQ_MOVE_INDEX_NB ? MOVE_OF[i] : 0;
}

xq_move xq_move_rotate(xq_move m) {
    int from = move_from(m), to = move_to(m);
    if (m >> 14 || from >= 90 || to >= 90) return m;
    return make_move(89 - from, 89 - to);
}

/* ------------------------------------------------------------------ input */

int xq_batch_load(const xq_batch_in *in, int64_t i, xq_pos *out) {
    if (!in || !out || i < 0 || i >= in->count) return XQ_E_ARG;
    switch (in->kind) {
    case XQ_IN_FEN: {
        int64_t a = in->fen_offsets[i], b = in->fen_offsets[i + 1];
        if (a < 0 || b < a) return XQ_E_ARG;
        return load_fen(in->fen_text + a, (size_t)(b - a), out);
    }
    case XQ_IN_PACKED:
        return xq_pos_unpack(out, in->packed + i * XQ_PACKED_SIZE);
    case XQ_IN_POS: {
        int st = xq_pos_check(&in->pos[i]);  /* caller-built structs: never trust them blindly */
        if (st == XQ_OK) *out = in->pos[i];
        return st;
    }
    default:
        return XQ_E_ARG;
    }
}

/* Is the call well formed?  (Checked before anything is written.) */
static int bad_call(const xq_batch_in *in, int64_t begin, int64_t end) {
    if (!in || in->count < 0 || begin < 0 || end < begin || end > in->count) return 1;
    switch (in->kind) {
    case XQ_IN_FEN: return !in->fen_offsets || (!in->fen_text && in->count > 0);
    case XQ_IN_PACKED: return !in->packed && in->count > 0;
    case XQ_IN_POS: return !in->pos && in->count > 0;
    default: return 1;
    }
}

/* Loads item i, records its status, and says whether it is usable. */
static inline int load_item(const xq_batch_in *in, int64_t i, xq_pos *p, int8_t *status) {
    int st = xq_batch_load(in, i, p);
    if (status) status[i] = (int8_t)st;
    return st == XQ_OK;
}

/* -------------------------------------------------------------- functions */

int64_t xq_batch_legal_moves(const xq_batch_in *in, int64_t begin, int64_t end,
                             xq_move *moves, int64_t cap, int64_t *counts, int8_t *status) {
    if (bad_call(in, begin, end) || !counts || cap < 0 || (!moves && cap > 0)) return XQ_E_ARG;
    int64_t n = 0;
    xq_move buf[XQ_MAX_MOVES];
    for (int64_t i = begin; i < end; i++) {
        xq_pos p;
        counts[i] = 0;
        if (!load_item(in, i, &p, status)) continue;
        int k;
        if (cap - n >= XQ_MAX_MOVES) {
            k = xq_gen_legal(&p, moves + n, XQ_MAX_MOVES);
        } else {
            k = xq_gen_legal(&p, buf, XQ_MAX_MOVES);
            if (k > cap - n) return XQ_E_BUFFER_SMALL;
            if (k > 0) memcpy(moves + n, buf, (size_t)k * sizeof *buf);
        }
        if (k < 0) return k; /* cannot happen: XQ_MAX_MOVES always suffices */
        n += k;
        counts[i] = k;
    }
    return n;
}

int xq_batch_perft(const xq_batch_in *in, int64_t begin, int64_t end, int depth, int bulk,
                   uint64_t *nodes, int8_t *status) {
    return xq_batch_perft_stoppable(in, begin, end, depth, bulk, nodes, status, NULL);
}

int xq_batch_perft_stoppable(const xq_batch_in *in, int64_t begin, int64_t end, int depth, int bulk,
                             uint64_t *nodes, int8_t *status, const int *stop) {
    if (bad_call(in, begin, end) || !nodes || depth < 0) return XQ_E_ARG;
    for (int64_t i = begin; i < end; i++) {
        xq_pos p;
        nodes[i] = load_item(in, i, &p, status) ? xq_perft_stoppable(&p, depth, bulk, stop) : 0;
    }
    return XQ_OK;
}

int xq_batch_zobrist(const xq_batch_in *in, int64_t begin, int64_t end, uint64_t *keys, int8_t *status) {
    if (bad_call(in, begin, end) || !keys) return XQ_E_ARG;
    for (int64_t i = begin; i < end; i++) {
        xq_pos p;
        keys[i] = load_item(in, i, &p, status) ? p.key : 0;
    }
    return XQ_OK;
}

int xq_batch_attack_maps(const xq_batch_in *in, int64_t begin, int64_t end, uint8_t *maps, int8_t *status) {
    if (bad_call(in, begin, end) || !maps) return XQ_E_ARG;
    for (int64_t i = begin; i < end; i++) {
        uint8_t *out = maps + i * 180;
        xq_pos p;
        if (!load_item(in, i, &p, status)) {
            memset(out, 0, 180);
            continue;
        }
        for (int c = 0; c < 2; c++) {
            uint8_t counts[90];
            xq_attack_counts(&p, c, counts);
            for (int r = 0; r < 10; r++) memcpy(out + c * 90 + (9 - r) * 9, counts + r * 9, 9);
        }
    }
    return XQ_OK;
}

int xq_batch_planes(const xq_batch_in *in, int64_t begin, int64_t end, int view, uint8_t *planes,
                    int8_t *status) {
    if (bad_call(in, begin, end) || !planes || (view != XQ_VIEW_ABSOLUTE && view != XQ_VIEW_SIDE_TO_MOVE))
        return XQ_E_ARG;
    for (int64_t i = begin; i < end; i++) {
        uint8_t *out = planes + i * (XQ_PLANES_NB * 90);
        xq_pos p;
        memset(out, 0, XQ_PLANES_NB * 90);
        if (!load_item(in, i, &p, status)) continue;
        int relative = view == XQ_VIEW_SIDE_TO_MOVE;
        int turned = relative && p.side == XQ_BLACK;
        xq_bb occ = pos_occ(&p);
        while (occ) {
            int s = bb_pop_lsb(&occ);
            int pc = p.board[s], color = pc >> 3;
            int block = relative ? (color == p.side ? 0 : 1) : color;
            int t = turned ? 89 - s : s;
            out[(block * 7 + (pc & 7) - 1) * 90 + (9 - RANK_OF[t]) * 9 + FILE_OF[t]] = 1;
        }
        if (p.side == XQ_RED) memset(out + 14 * 90, 1, 90);
    }
    return XQ_OK;
}

int xq_batch_legal_mask(const xq_batch_in *in, int64_t begin, int64_t end, int view, uint8_t *mask,
                        int8_t *status) {
    if (bad_call(in, begin, end) || !mask || (view != XQ_VIEW_ABSOLUTE && view != XQ_VIEW_SIDE_TO_MOVE))
        return XQ_E_ARG;
    ensure_index();
    for (int64_t i = begin; i < end; i++) {
        uint8_t *out = mask + i * XQ_MOVE_INDEX_NB;
        xq_pos p;
        memset(out, 0, XQ_MOVE_INDEX_NB);
        if (!load_item(in, i, &p, status)) continue;
        xq_move buf[XQ_MAX_MOVES];
        int k = xq_gen_legal(&p, buf, XQ_MAX_MOVES);
        int turned = view == XQ_VIEW_SIDE_TO_MOVE && p.side == XQ_BLACK;
        for (int j = 0; j < k; j++) {
            int idx = INDEX_OF[turned ? xq_move_rotate(buf[j]) : buf[j]];
            if (idx < 0) {
                /* A legal move outside MOVE_INDEX: a piece on a square it can never reach in a game
                   (an advisor off its five points, an elephant off its seven).  No mask can say it. */
                memset(out, 0, XQ_MOVE_INDEX_NB);
                if (status) status[i] = XQ_E_FEN_POSITION;
                break;
            }
            out[idx] = 1;
        }
    }
    return XQ_OK;
}

int xq_batch_pack(const xq_batch_in *in, int64_t begin, int64_t end, uint8_t *packed, int8_t *status) {
    if (bad_call(in, begin, end) || !packed) return XQ_E_ARG;
    for (int64_t i = begin; i < end; i++) {
        uint8_t *out = packed + i * XQ_PACKED_SIZE;
        xq_pos p;
        if (load_item(in, i, &p, status)) xq_pos_pack(&p, out);
        else memset(out, 0, XQ_PACKED_SIZE);
    }
    return XQ_OK;
}

int64_t xq_batch_fens(const xq_batch_in *in, int64_t begin, int64_t end, char *text, int64_t cap,
                      int8_t *status) {
    if (bad_call(in, begin, end) || cap < 0 || (!text && cap > 0)) return XQ_E_ARG;
    int64_t n = 0;
    for (int64_t i = begin; i < end; i++) {
        xq_pos p;
        if (load_item(in, i, &p, status)) {
            int64_t room = cap - n;
            int len = xq_pos_fen(&p, text + n, (size_t)(room > XQ_FEN_MAX ? XQ_FEN_MAX : room));
            if (len < 0) return XQ_E_BUFFER_SMALL;
            n += len;  /* the NUL xq_pos_fen wrote is overwritten by the newline */
        }
        if (n >= cap) return XQ_E_BUFFER_SMALL;
        text[n++] = '\n';
    }
    return n;
}
