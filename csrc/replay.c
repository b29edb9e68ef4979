/*
 * replay.c - replaying a game's move text in C (declared in xq_replay.h).
 *
 * int xq_play_text(xq_pos *pos, const char *text, size_t len, xq_undo *undos, int cap, size_t *stop);
 *
 * Plays the whitespace-separated tokens of UTF-8 move text from *pos, writing
 * the undo record of ply i to undos[i] (at most cap plies).  Move numbers
 * ("12." and "12...") are skipped.  A token is played when it is
 *   - ICCS: "h2e2" (lower case) or "H2-E2" (either case, with the dash), and legal;
 *   - Chinese, four characters: piece, file numeral, direction, number
 *     (车二进六 / 車二進六, numerals 一…九, 1…9, １…９ in either script), read
 *     as the notation module reads it: the pieces of that kind of the side
 *     to move on that file (numbered from the mover's right); when several
 *     stand there, the one that can make the move if only one can;
 *   - Chinese with 前/后/後 instead of the file, when exactly one file holds
 *     two (and only two) such pieces of the side to move.
 * Piece characters 帅帥兵 name Red's pieces, 将將卒 Black's; the others
 * (仕士 相象 马馬傌 车車俥 炮砲包) either side's.  Directions 进進 退 平.
 * A token that ends without ASCII whitespace or the end of the text
 * after it, or anything else (results, WXF, comments, five-character
 * forms, an illegal, ambiguous or impossible move) stops the replay: the
 * caller decides about it (and explains it), then calls again after it.
 *
 * Returns the number of plies played (0..cap) and sets *stop to the byte
 * offset of the token where it stopped (len when it reached the end; the
 * offset of the first token that would not fit when cap was reached).
 * Returns XQ_E_ARG for NULL pointers or cap < 0.
 *
 * int xq_text_ending(const xq_pos *pos, const xq_undo *undos, int n, int count, int flags, xq_rep_info *loops,
 *                    char *fen, size_t cap, int *out);
 *
 * What a validator asks of the position a replay reached, in one call: its legal moves, halfmove clock,
 * repetition loops (xq_repetition_loops, for games of 4 plies or more with legal moves) and FEN.
 */
#include "xq.h"

/* ASCII whitespace: ' ', \t, \n, \v, \f, \r (one shift and mask; the replay's hottest test). */
static inline int is_space(unsigned char c) {
    return c <= ' ' && ((0x100003E00ULL >> c) & 1);
}

/* Decodes one UTF-8 code point from s[0..n); returns it and sets *len, or -1. */
static long utf8(const unsigned char *s, size_t n, size_t *len) {
    unsigned char c = s[0];
    if (c < 0x80) { *len = 1; return c; }
    if ((c & 0xE0) == 0xC0 && n >= 2 && (s[1] & 0xC0) == 0x80) {
        *len = 2;
        return ((long)(c & 0x1F) << 6) | (s[1] & 0x3F);
    }
    if ((c & 0xF0) == 0xE0 && n >= 3 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        *len = 3;
        return ((long)(c & 0x0F) << 12) | ((long)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    }
    return -1;
}

/* Numerals 1..9 in any script, else 0. */
static int numeral(long cp) {
    if (cp >= '1' && cp <= '9') return (int)(cp - '0');
    if (cp >= 0xFF11 && cp <= 0xFF19) return (int)(cp - 0xFF10);
    switch (cp) {
    case 0x4E00: return 1; case 0x4E8C: return 2; case 0x4E09: return 3; case 0x56DB: return 4;
    case 0x4E94: return 5; case 0x516D: return 6; case 0x4E03: return 7; case 0x516B: return 8;
    case 0x4E5D: return 9;
    default: return 0;
    }
}

/* Piece type (1..7) with side hint in bits 4-5 (0x10 Black only, 0x20 Red only), else 0. */
static int piece(long cp) {
    switch (cp) {
    case 0x5E05: case 0x5E25: return XQ_KING | 0x20;            /* 帅 帥 */
    case 0x5C06: case 0x5C07: return XQ_KING | 0x10;            /* 将 將 */
    case 0x4ED5: case 0x58EB: return XQ_ADVISOR;                /* 仕 士 */
    case 0x76F8: case 0x8C61: return XQ_ELEPHANT;               /* 相 象 */
    case 0x9A6C: case 0x99AC: case 0x508C: return XQ_HORSE;     /* 马 馬 傌 */
    case 0x8F66: case 0x8ECA: case 0x4FE5: return XQ_ROOK;      /* 车 車 俥 */
    case 0x70AE: case 0x7832: case 0x5305: return XQ_CANNON;    /* 炮 砲 包 */
    case 0x5175: return XQ_PAWN | 0x20;                         /* 兵 */
    case 0x5352: return XQ_PAWN | 0x10;                         /* 卒 */
    default: return 0;
    }
}

/* Direction: 1 forward, -1 backward, 0 sideways; 2 when not a direction. */
static int direction(long cp) {
    switch (cp) {
    case 0x8FDB: case 0x9032: return 1;                         /* 进 進 */
    case 0x9000: return -1;                                     /* 退 */
    case 0x5E73: return 0;                                      /* 平 */
    default: return 2;
    }
}

/* The to-square of a move by a piece of `type` from `from`, or -1 (the notation's geometry). */
static int destination(int type, int red, int from, int dir, int number) {
    int file = from % 9, rank = from / 9;
    int fwd = red ? 1 : -1;
    int tf = red ? 9 - number : number - 1;
    int df, dr;
    if (type == XQ_ADVISOR || type == XQ_ELEPHANT || type == XQ_HORSE) {
        if (dir == 0) return -1;
        df = tf > file ? tf - file : file - tf;
        if (type == XQ_ADVISOR) { if (df != 1) return -1; dr = 1; }
        else if (type == XQ_ELEPHANT) { if (df != 2) return -1; dr = 2; }
        else if (df == 1) dr = 2;
        else if (df == 2) dr = 1;
        else return -1;
        rank += dir * dr * fwd;
        file = tf;
    } else if (dir == 0) {
        if (tf == file) return -1;
        file = tf;
    } else {
        rank += dir * number * fwd;
    }
    if (rank < 0 || rank > 9) return -1;
    return rank * 9 + file;
}

/* The squares of file a (a0, a1, ... a9: bits 0, 9, ... 81). */
static const xq_bb FILE_A = ((xq_bb)((1ULL << 8) | (1ULL << 17)) << 64) |
                            (1ULL | 1ULL << 9 | 1ULL << 18 | 1ULL << 27 | 1ULL << 36 | 1ULL << 45 | 1ULL << 54 |
                             1ULL << 63);

static inline int lowest_square(xq_bb b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* Resolves a Chinese move; returns the legal move or 0. qual: 0 file given, 1 front, -1 rear. */
static xq_move resolve(const xq_pos *pos, int type, int qual, int file_number, int dir, int number) {
    int red = pos->side == XQ_RED;
    int code = (red << 3) | type;
    xq_move found = 0;
    if (qual == 0) {
        int f = red ? 9 - file_number : file_number - 1;
        /* The pieces of that kind on the file, lowest rank first (usually one). */
        xq_bb on_file = pos->by_color[red ? XQ_RED : XQ_BLACK] & pos->by_type[type] & (FILE_A << f);
        while (on_file) {
            int sq = lowest_square(on_file);
            on_file &= on_file - 1;
            int to = destination(type, red, sq, dir, number);
            if (to < 0) continue;
            xq_move m = (xq_move)(sq << 7 | to);
            if (xq_pos_is_legal(pos, m)) {
                if (found) return 0;   /* two pieces can make it: ambiguous */
                found = m;
            }
        }
        return found;
    }
    int tandem_file = -1, lo = -1, hi = -1;
    for (int f = 0; f < 9; f++) {
        int n = 0, a = -1, b = -1;
        for (int r = 0; r < 10; r++) {
            if (pos->board[r * 9 + f] == code) {
                if (a < 0) a = r; else b = r;
                n++;
            }
        }
        if (n >= 2) {
            if (tandem_file >= 0 || n != 2) return 0;
            tandem_file = f; lo = a; hi = b;
        }
    }
    if (tandem_file < 0) return 0;
    /* Red's front piece is the one on the higher rank, Black's on the lower. */
    int rank = (red ? (qual > 0 ? hi : lo) : (qual > 0 ? lo : hi));
    int from = rank * 9 + tandem_file;
    int to = destination(type, red, from, dir, number);
    if (to < 0) return 0;
    xq_move m = (xq_move)(from << 7 | to);
    return xq_pos_is_legal(pos, m) ? m : 0;
}

/* The move a token names, or 0 (stop); *skip set for move numbers. */
static xq_move token_move(const xq_pos *pos, const unsigned char *t, size_t n, int *skip) {
    *skip = 0;
    if (n >= 2 && t[0] >= '0' && t[0] <= '9') {
        size_t i = 0;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
        if (i < n && t[i] == '.' && (i + 1 == n || (i + 3 == n && t[i + 1] == '.' && t[i + 2] == '.'))) {
            *skip = 1;
        }
        return 0;
    }
    if (n == 4 || n == 5) {
        unsigned char a, b, c, d;
        if (n == 4) {
            a = t[0]; b = t[1]; c = t[2]; d = t[3];
            if (!(a >= 'a' && a <= 'i' && c >= 'a' && c <= 'i')) goto chinese;
        } else {
            if (t[2] != '-') return 0;
            a = t[0] | 0x20; b = t[1]; c = t[3] | 0x20; d = t[4];
            if (!(a >= 'a' && a <= 'i' && c >= 'a' && c <= 'i')) return 0;
        }
        if (!(b >= '0' && b <= '9' && d >= '0' && d <= '9')) return 0;
        xq_move m = (xq_move)(((b - '0') * 9 + (a - 'a')) << 7 | ((d - '0') * 9 + (c - 'a')));
        return xq_pos_is_legal(pos, m) ? m : 0;
    }
chinese:
    {
        long cp[4];
        size_t off = 0, len;
        int k;
        for (k = 0; k < 4 && off < n; k++) {
            cp[k] = utf8(t + off, n - off, &len);
            if (cp[k] < 0) return 0;
            off += len;
        }
        if (k != 4 || off != n) return 0;
        int dir = direction(cp[2]);
        int number = numeral(cp[3]);
        if (dir == 2 || !number) return 0;
        int red = pos->side == XQ_RED;
        int p = piece(cp[0]), qual = 0, file_number = 0;
        if (p) {
            file_number = numeral(cp[1]);
            if (!file_number) return 0;
        } else {
            if (cp[0] == 0x524D) qual = 1;                              /* 前 */
            else if (cp[0] == 0x540E || cp[0] == 0x5F8C) qual = -1;     /* 后 後 */
            else return 0;
            p = piece(cp[1]);
            if (!p) return 0;
        }
        if ((p & 0x20 && !red) || (p & 0x10 && red)) return 0;
        return resolve(pos, p & 7, qual, file_number, dir, number);
    }
}

int xq_play_text(xq_pos *pos, const char *text, size_t len, xq_undo *undos, int cap, size_t *stop) {
    if (!pos || (!text && len) || (!undos && cap) || !stop || cap < 0) return XQ_E_ARG;
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    int ply = 0;
    for (;;) {
        while (i < len && is_space(s[i])) i++;
        if (i == len) { *stop = len; return ply; }
        size_t j = i;
        while (j < len && !is_space(s[j])) j++;
        int skip;
        xq_move m = token_move(pos, s + i, j - i, &skip);
        if (skip) { i = j; continue; }
        if (!m || ply == cap) { *stop = i; return ply; }
        xq_pos_do_move(pos, m, &undos[ply]);
        ply++;
        i = j;
    }
}

int xq_text_ending(const xq_pos *pos, const xq_undo *undos, int n, int count, int flags, xq_rep_info *loops,
                   char *fen, size_t cap, int *out) {
    if (!pos || !fen || !out || n < 0 || (n && !undos)) return XQ_E_ARG;
    int legal = xq_count_legal(pos);
    if (legal < 0) return legal;
    out[0] = legal;
    out[1] = pos->halfmove;
    out[2] = out[3] = 0;
    if (legal && n >= 4) {
        if (!loops) return XQ_E_ARG;
        out[2] = xq_repetition_loops(pos, undos, n, count, flags, loops);
        out[3] = out[2] < 0 ? 0 : loops[n].count;   /* a refused history leaves loops as they were */
    }
    return xq_pos_fen(pos, fen, cap);
}
