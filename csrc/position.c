/*
 * position.c - FEN in and out, make/unmake with Zobrist keys, attack queries.
 */
#include "xq_internal.h"

static const int MAX_COUNT[8] = {0, 5, 2, 2, 2, 2, 2, 1};
static const char FEN_CHARS[8] = {0, 'p', 'a', 'b', 'n', 'c', 'r', 'k'};

static int piece_from_char(char c) {
    int red = c >= 'A' && c <= 'Z';
    char l = red ? (char)(c - 'A' + 'a') : c;
    int t;
    switch (l) {
    case 'p': t = XQ_PAWN; break;
    case 'a': t = XQ_ADVISOR; break;
    case 'b': case 'e': t = XQ_ELEPHANT; break;
    case 'n': case 'h': t = XQ_HORSE; break;
    case 'c': t = XQ_CANNON; break;
    case 'r': t = XQ_ROOK; break;
    case 'k': t = XQ_KING; break;
    default: return 0;
    }
    return (red ? XQ_RED : XQ_BLACK) << 3 | t;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void put_piece(xq_pos *p, int pc, int s) {
    p->board[s] = (uint8_t)pc;
    p->by_color[pc >> 3] |= SQ_BB[s];
    p->by_type[pc & 7] |= SQ_BB[s];
    p->occ_rot |= ROT_BB[s];
    if ((pc & 7) == XQ_KING) p->king_sq[pc >> 3] = (uint8_t)s;
}

uint64_t xq_pos_key_recompute(const xq_pos *p) {
    if (!p) return 0;
    uint64_t k = p->side == XQ_RED ? 0 : ZOBRIST_SIDE;
    for (int s = 0; s < 90; s++)
        if (p->board[s]) k ^= ZOBRIST[p->board[s]][s];
    return k;
}

uint64_t xq_pos_key(const xq_pos *p) { return p ? p->key : 0; }

/* The most moves one piece of each type can have (a rook or cannon 17,
   a horse 8): with XQ_FEN_ALLOW_ANY_COUNT a side's pieces may not add up
   to more than XQ_MAX_MOVES, so every move list still fits. */
static const int MOVES_OF_TYPE[8] = {0, 3, 4, 4, 8, 17, 17, 4};

/* Piece counts of a board: one king a side (or, with XQ_FEN_ALLOW_NO_KING,
   at most one), at most MAX_COUNT of each type (or, with
   XQ_FEN_ALLOW_ANY_COUNT, no more pieces than the move lists hold), no code
   outside 1-7 / 9-15.  XQ_OK or XQ_E_FEN_POSITION. */
static int check_counts(const uint8_t board[90], unsigned flags) {
    int min_kings = (flags & XQ_FEN_ALLOW_NO_KING) ? 0 : 1;
    int count[16] = {0};
    for (int s = 0; s < 90; s++) {
        int pc = board[s];
        if (!pc) continue;
        if ((pc & 7) == 0 || pc > 15) return XQ_E_FEN_POSITION;
        count[pc]++;
    }
    for (int c = 0; c < 2; c++) {
        if (count[c << 3 | XQ_KING] < min_kings || count[c << 3 | XQ_KING] > 1) return XQ_E_FEN_POSITION;
        int moves = 0;
        for (int t = 1; t < 8; t++) {
            if (count[c << 3 | t] > MAX_COUNT[t] && !(flags & XQ_FEN_ALLOW_ANY_COUNT)) return XQ_E_FEN_POSITION;
            moves += count[c << 3 | t] * MOVES_OF_TYPE[t];
        }
        if (moves > XQ_MAX_MOVES) return XQ_E_FEN_POSITION;
    }
    return XQ_OK;
}

int xq_pos_check(const xq_pos *p) {
    if (!p) return XQ_E_ARG;
    if (p->side > 1 || p->fullmove == 0 || p->fullmove > XQ_FULLMOVE_MAX) return XQ_E_FEN_POSITION;
    int st = check_counts(p->board, 0);
    if (st != XQ_OK) return st;
    /* Everything derived from board[] must agree with it: a position that
       passes is safe for every function. */
    xq_bb color[2] = {0, 0}, type[8] = {0}, rot = 0;
    for (int s = 0; s < 90; s++) {
        int pc = p->board[s];
        if (!pc) continue;
        color[pc >> 3] |= SQ_BB[s];
        type[pc & 7] |= SQ_BB[s];
        rot |= ROT_BB[s];
        if ((pc & 7) == XQ_KING && p->king_sq[pc >> 3] != s) return XQ_E_FEN_POSITION;
    }
    if (color[0] != p->by_color[0] || color[1] != p->by_color[1] || rot != p->occ_rot) return XQ_E_FEN_POSITION;
    for (int t = 0; t < 8; t++)
        if (type[t] != p->by_type[t]) return XQ_E_FEN_POSITION;
    if (p->key != xq_pos_key_recompute(p)) return XQ_E_FEN_POSITION;
    return XQ_OK;
}

/* Parses an unsigned decimal token of at most 9 digits; -1 if not one. */
static long parse_uint(const char *s, size_t n) {
    if (n == 0 || n > 9) return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int xq_pos_set_fen(xq_pos *pos, const char *fen, size_t len, size_t *err_offset) {
    return xq_pos_set_fen_flags(pos, fen, len, err_offset, 0);
}

int xq_pos_set_fen_flags(xq_pos *pos, const char *fen, size_t len, size_t *err_offset, unsigned flags) {
    size_t dummy;
    if (!err_offset) err_offset = &dummy;
    *err_offset = 0;
    if (!pos || (!fen && len)) return XQ_E_ARG;
    xq_pos p;
    memset(&p, 0, sizeof p);
    size_t i = 0;
    while (i < len && is_space(fen[i])) i++;
    int rank = 9, file = 0;
    for (;;) {
        if (i >= len || is_space(fen[i])) {
            if (rank != 0 || file != 9) { *err_offset = i; return XQ_E_FEN_SYNTAX; }
            break;
        }
        char c = fen[i];
        if (c == '/') {
            if (file != 9 || rank == 0) { *err_offset = i; return XQ_E_FEN_SYNTAX; }
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > 9) { *err_offset = i; return XQ_E_FEN_SYNTAX; }
        } else {
            int pc = piece_from_char(c);
            if (!pc || file >= 9) { *err_offset = i; return XQ_E_FEN_SYNTAX; }
            int s = rank * 9 + file;
            p.board[s] = (uint8_t)pc;
            file++;
        }
        i++;
    }
    /* Side to move (optional, Red by default). */
    p.side = XQ_RED;
    while (i < len && is_space(fen[i])) i++;
    if (i < len) {
        char c = fen[i];
        if (c == 'w' || c == 'W' || c == 'r' || c == 'R') p.side = XQ_RED;
        else if (c == 'b' || c == 'B') p.side = XQ_BLACK;
        else { *err_offset = i; return XQ_E_FEN_SYNTAX; }
        i++;
        if (i < len && !is_space(fen[i])) { *err_offset = i; return XQ_E_FEN_SYNTAX; }
    }
    /* Optional "-" "-" fields, then halfmove clock and fullmove number. */
    int dashes = 0, numbers = 0;
    long halfmove = 0, fullmove = 1;
    for (;;) {
        while (i < len && is_space(fen[i])) i++;
        if (i >= len) break;
        size_t start = i;
        while (i < len && !is_space(fen[i])) i++;
        size_t n = i - start;
        if (n == 1 && fen[start] == '-' && dashes < 2 && numbers == 0) { dashes++; continue; }
        long v = parse_uint(fen + start, n);
        if (v < 0 || numbers >= 2 || (numbers == 0 && v > 65535) || v > (long)XQ_FULLMOVE_MAX) {
            *err_offset = start;
            return XQ_E_FEN_SYNTAX;
        }
        if (numbers == 0) halfmove = v; else fullmove = v;
        numbers++;
    }
    int st = check_counts(p.board, flags);
    if (st != XQ_OK) { *err_offset = len; return st; }
    p.king_sq[XQ_BLACK] = p.king_sq[XQ_RED] = XQ_SQ_NONE;  /* put_piece sets the kings there are */
    p.halfmove = (uint16_t)halfmove;
    p.fullmove = (uint32_t)(fullmove < 1 ? 1 : fullmove);
    uint8_t board[90];
    memcpy(board, p.board, sizeof board);
    memset(p.board, 0, sizeof p.board);
    for (int s = 0; s < 90; s++)
        if (board[s]) put_piece(&p, board[s], s);
    p.key = xq_pos_key_recompute(&p);
    *pos = p;
    return XQ_OK;
}

static size_t put_uint(char *b, unsigned long v) {
    char tmp[24];
    size_t n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    for (size_t i = 0; i < n; i++) b[i] = tmp[n - 1 - i];
    return n;
}

int xq_pos_fen(const xq_pos *p, char *buf, size_t cap) {
    char out[XQ_FEN_MAX];
    size_t n = 0;
    if (!p || !buf) return XQ_E_ARG;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 9; f++) {
            int pc = p->board[r * 9 + f];
            if (!pc) { empty++; continue; }
            if (empty) { out[n++] = (char)('0' + empty); empty = 0; }
            char c = FEN_CHARS[pc & 7];
            out[n++] = (pc >> 3) ? (char)(c - 'a' + 'A') : c;
        }
        if (empty) out[n++] = (char)('0' + empty);
        if (r) out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = p->side == XQ_RED ? 'w' : 'b';
    memcpy(out + n, " - - ", 5);
    n += 5;
    n += put_uint(out + n, p->halfmove);
    out[n++] = ' ';
    n += put_uint(out + n, p->fullmove);
    if (n + 1 > cap) return XQ_E_BUFFER_SMALL;
    memcpy(buf, out, n);
    buf[n] = 0;
    return (int)n;
}

void xq_pos_copy(xq_pos *dst, const xq_pos *src) {
    if (dst && src) *dst = *src;
}

void pos_do_move_fast(xq_pos *p, xq_move m, xq_undo *u) {
    int from = move_from(m), to = move_to(m);
    int pc = p->board[from], cap = p->board[to];
    int us = p->side;
    xq_bb ft = SQ_BB[from] | SQ_BB[to];
    u->key = p->key;
    u->halfmove = p->halfmove;
    u->fullmove = p->fullmove;
    u->move = m;
    u->captured = (uint8_t)cap;
    uint64_t k = p->key ^ ZOBRIST[pc][from] ^ ZOBRIST[pc][to] ^ ZOBRIST_SIDE;
    p->by_color[us] ^= ft;
    p->by_type[pc & 7] ^= ft;
    if (cap) {
        p->by_color[us ^ 1] ^= SQ_BB[to];
        p->by_type[cap & 7] ^= SQ_BB[to];
        p->occ_rot ^= ROT_BB[from];
        k ^= ZOBRIST[cap][to];
        p->halfmove = 0;
    } else {
        p->occ_rot ^= ROT_BB[from] | ROT_BB[to];
        if (p->halfmove < 65535) p->halfmove++;
    }
    p->board[to] = (uint8_t)pc;
    p->board[from] = 0;
    if ((pc & 7) == XQ_KING) p->king_sq[us] = (uint8_t)to;
    if (us == XQ_BLACK && p->fullmove < XQ_FULLMOVE_MAX) p->fullmove++;
    p->side = (uint8_t)(us ^ 1);
    p->key = k;
}

void pos_undo_move_fast(xq_pos *p, const xq_undo *u) {
    int from = move_from(u->move), to = move_to(u->move);
    int pc = p->board[to], cap = u->captured;
    int us = p->side ^ 1;
    xq_bb ft = SQ_BB[from] | SQ_BB[to];
    p->by_color[us] ^= ft;
    p->by_type[pc & 7] ^= ft;
    if (cap) {
        p->by_color[us ^ 1] |= SQ_BB[to];
        p->by_type[cap & 7] |= SQ_BB[to];
        p->occ_rot ^= ROT_BB[from];
    } else {
        p->occ_rot ^= ROT_BB[from] | ROT_BB[to];
    }
    p->board[from] = (uint8_t)pc;
    p->board[to] = (uint8_t)cap;
    if ((pc & 7) == XQ_KING) p->king_sq[us] = (uint8_t)from;
    p->side = (uint8_t)us;
    p->key = u->key;
    p->halfmove = u->halfmove;
    p->fullmove = u->fullmove;
}

int xq_pos_do_move(xq_pos *p, xq_move m, xq_undo *u) {
    if (!p || !u) return XQ_E_ARG;
    int from = move_from(m), to = move_to(m);
    if (from >= 90 || to >= 90 || m >> 14) return XQ_E_MOVE_FORMAT;
    int pc = p->board[from], cap = p->board[to];
    if (!pc || (pc >> 3) != p->side || from == to) return XQ_E_ILLEGAL_MOVE;
    if (cap && ((cap >> 3) == p->side || (cap & 7) == XQ_KING)) return XQ_E_ILLEGAL_MOVE;
    pos_do_move_fast(p, m, u);
    return XQ_OK;
}

int xq_pos_undo_move(xq_pos *p, const xq_undo *u) {
    if (!p || !u) return XQ_E_ARG;
    /* The record must describe the last move made: its piece now on `to`,
       belonging to the side that moved, and `from` empty. */
    int from = move_from(u->move), to = move_to(u->move);
    if (u->move >> 14 || from >= 90 || to >= 90 || from == to) return XQ_E_ARG;
    int pc = p->board[to], mover = p->side ^ 1;
    if (!pc || (pc >> 3) != mover || p->board[from]) return XQ_E_ARG;
    if (u->captured && ((u->captured >> 3) != p->side || (u->captured & 7) == 0 || (u->captured & 7) == XQ_KING))
        return XQ_E_ARG;
    pos_undo_move_fast(p, u);
    return XQ_OK;
}

int xq_pos_push(xq_pos *p, xq_move m, xq_undo *undos, int i) {
    if (!p || !undos || i < 0) return XQ_E_ARG;
    if (!m) {
        xq_pos_do_null(p, &undos[i]);
        return XQ_OK;
    }
    return xq_pos_do_move(p, m, &undos[i]);
}

int xq_pos_pop(xq_pos *p, xq_move m, const xq_undo *undos, int i) {
    if (!p || !undos || i < 0 || undos[i].move != m) return XQ_E_ARG;
    if (!m) {
        xq_pos_undo_null(p, &undos[i]);
        return XQ_OK;
    }
    return xq_pos_undo_move(p, &undos[i]);
}

int xq_pos_play_codes(xq_pos *p, const xq_move *moves, int n, xq_undo *undos, int check_legal) {
    if (!p || n < 0 || (n && (!moves || !undos))) return XQ_E_ARG;
    for (int i = 0; i < n; i++) {
        if (check_legal && !xq_pos_is_legal(p, moves[i])) return i;
        if (xq_pos_do_move(p, moves[i], &undos[i]) != XQ_OK) return i;
    }
    return n;
}

void xq_pos_do_null(xq_pos *p, xq_undo *u) {
    if (!p || !u) return;
    u->key = p->key;
    u->halfmove = p->halfmove;
    u->fullmove = p->fullmove;
    u->move = 0;
    u->captured = 0;
    p->key ^= ZOBRIST_SIDE;
    if (p->side == XQ_BLACK && p->fullmove < XQ_FULLMOVE_MAX) p->fullmove++;
    if (p->halfmove < 65535) p->halfmove++;
    p->side ^= 1;
}

void xq_pos_undo_null(xq_pos *p, const xq_undo *u) {
    if (!p || !u) return;
    p->side ^= 1;
    p->key = u->key;
    p->halfmove = u->halfmove;
    p->fullmove = u->fullmove;
}

xq_bb piece_att(const xq_pos *p, int s, xq_bb occ, xq_bb rot) {
    int pc = p->board[s], c = pc >> 3;
    switch (pc & 7) {
    case XQ_PAWN: return PAWN_ATT[c][s];
    case XQ_ADVISOR: return ADVISOR_ATT[c][s];
    case XQ_ELEPHANT: return elephant_att(c, s, occ);
    case XQ_HORSE: return horse_att(s, occ);
    case XQ_CANNON: return cannon_ctl(s, occ, rot);
    case XQ_ROOK: return rook_att(s, occ, rot);
    case XQ_KING: return KING_ATT[c][s] | (rook_att(s, occ, rot) & pieces_of(p, c ^ 1, XQ_KING) & FILE_OF_BB[s]);
    default: return 0;
    }
}

xq_bb attackers_bb(const xq_pos *p, int s, int color, xq_bb occ, xq_bb rot) {
    xq_bb ours = p->by_color[color];
    xq_bb a = PAWN_TO[color][s] & ours & p->by_type[XQ_PAWN];
    a |= horse_attackers(s, ours & p->by_type[XQ_HORSE], occ);
    if (LINE_EMPTY[s] & ours & (p->by_type[XQ_ROOK] | p->by_type[XQ_CANNON] | p->by_type[XQ_KING])) {
        a |= rook_att(s, occ, rot) & ours & p->by_type[XQ_ROOK];
        a |= cannon_cap(s, occ, rot) & ours & p->by_type[XQ_CANNON];
    }
    xq_bb others = ours & (p->by_type[XQ_ADVISOR] | p->by_type[XQ_ELEPHANT] | p->by_type[XQ_KING]);
    while (others) {
        int from = bb_pop_lsb(&others);
        if (bb_test(piece_att(p, from, occ, rot), s)) a |= SQ_BB[from];
    }
    return a;
}

void xq_pos_pieces(const xq_pos *p, int color, int type, uint64_t out[2]) {
    if (!out) return;
    out[0] = out[1] = 0;
    if (!p || (color != 0 && color != 1) || type < 1 || type > 7) return;
    bb_out(pieces_of(p, color, type), out);
}

void xq_attackers_to(const xq_pos *p, int sq, int color, uint64_t out[2]) {
    if (!p || !out) return;
    if (sq < 0 || sq >= 90 || (color != 0 && color != 1)) { out[0] = out[1] = 0; return; }
    bb_out(attackers_bb(p, sq, color, pos_occ(p), p->occ_rot), out);
}

int xq_pos_in_check(const xq_pos *p) {
    if (!p) return 0;
    int us = p->side;
    return attacked_by(p, p->king_sq[us], us ^ 1, p->by_color[us ^ 1], pos_occ(p), p->occ_rot);
}

void xq_pos_checkers(const xq_pos *p, uint64_t out[2]) {
    if (!out) return;
    if (!p) { out[0] = out[1] = 0; return; }
    int us = p->side;
    bb_out(attackers_bb(p, p->king_sq[us], us ^ 1, pos_occ(p), p->occ_rot), out);
}

void xq_attack_counts(const xq_pos *p, int color, uint8_t out[90]) {
    if (!p || !out) return;
    memset(out, 0, 90);
    if (color != 0 && color != 1) return;
    xq_bb occ = pos_occ(p), ours = p->by_color[color];
    while (ours) {
        int s = bb_pop_lsb(&ours);
        xq_bb a = piece_att(p, s, occ, p->occ_rot);
        while (a) out[bb_pop_lsb(&a)]++;
    }
}
