#define _POSIX_C_SOURCE 199309L
/*
 * xqperft.c - command-line perft / divide driver for C-only debugging and
 * sanitizer runs.
 *
 *   xqperft [-d DEPTH] [--divide] [--no-bulk] [--hash MB [--hash-verify N]] [FEN]
 *                               --hash counts with xq_perft_hashed and a
 *                               table of MB MiB (this driver allocates it);
 *                               --hash-verify recounts one hit in N.
 *   xqperft --fen-file FILE     parse every line of FILE as a FEN (fuzz
 *                               corpus / malformed input): prints the status
 *                               and, for good FENs, perft(2).
 *   xqperft --fuzz N [SEED]     mutation-fuzz the FEN parser N times from
 *                               FEN seeds (byte flips, inserts, deletes,
 *                               splices); every parsed FEN must round-trip
 *                               and survive movegen, make/unmake and perft(2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "xq.h"

static const char *START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

static void move_name(xq_move m, char out[5]) {
    int from = m >> 7, to = m & 127;
    out[0] = (char)('a' + from % 9);
    out[1] = (char)('0' + from / 9);
    out[2] = (char)('a' + to % 9);
    out[3] = (char)('0' + to / 9);
    out[4] = 0;
}

static int fen_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 2; }
    static char line[1 << 16];
    size_t len = 0;
    int c, bad = 0, good = 0;
    for (;;) {
        c = fgetc(f);
        if (c == EOF || c == '\n') {
            xq_pos pos;
            size_t off = 0;
            int st = xq_pos_set_fen(&pos, line, len, &off);
            if (st == XQ_OK) {
                char buf[XQ_FEN_MAX];
                xq_pos again;
                int n = xq_pos_fen(&pos, buf, sizeof buf);
                if (n < 0 || xq_pos_set_fen(&again, buf, (size_t)n, NULL) != XQ_OK ||
                    xq_pos_key(&again) != xq_pos_key(&pos)) {
                    fprintf(stderr, "round trip failed: %s\n", buf);
                    fclose(f);
                    return 1;
                }
                printf("ok perft2=%llu %s\n", (unsigned long long)xq_perft(&pos, 2, 1), buf);
                good++;
            } else {
                printf("error %d (%s) at %zu\n", st, xq_status_str(st), off);
                bad++;
            }
            len = 0;
            if (c == EOF) break;
        } else if (len < sizeof line) {
            line[len++] = (char)c;
        }
    }
    fclose(f);
    printf("%d good, %d bad\n", good, bad);
    return 0;
}

static uint64_t rng_state;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const char *SEEDS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b",
    "4k4/9/9/9/9/9/9/9/9/4K4 r 12 40",
    /* Set-up positions: a side without a king (read with XQ_FEN_ALLOW_NO_KING). */
    "9/9/9/9/9/9/9/9/9/9 w - - 0 1",
    "3k5/9/2n6/9/9/4c4/9/9/R8/9 w",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR b - - 0 1",
};

/* A random game from pos that often shuffles back and forth (so that
   positions repeat), with null moves now and then; then every history
   function (rulings, repetition loops) over it, and the text replay on
   random bytes.  Returns 0, or 1 on an inconsistency. */
static int exercise_history(const xq_pos *start) {
    enum { PLIES = 48 };
    static const char text_alphabet[] = "abcdefghi0123456789-. \n";
    static const char *chinese[] = {"\xe8\xbd\xa6", "\xe9\xa9\xac", "\xe7\x82\xae", "\xe5\x85\xb5", "\xe5\x89\x8d",
                                    "\xe8\xbf\x9b", "\xe9\x80\x80", "\xe5\xb9\xb3", "\xe4\xba\x94", "\xef\xbc\x95"};
    xq_pos pos = *start;
    xq_undo undos[PLIES];
    xq_move history[PLIES];
    int n = 0;
    for (; n < PLIES; n++) {
        xq_move moves[XQ_MAX_MOVES];
        int nm = xq_gen_legal(&pos, moves, XQ_MAX_MOVES);
        if (nm <= 0) break;
        xq_move m = moves[rnd() % (uint64_t)nm];
        if (n >= 4 && rnd() % 4) m = history[n - 4];  /* repeat the move of two turns ago */
        if (rnd() % 16 == 0 || !xq_pos_is_legal(&pos, m)) m = moves[rnd() % (uint64_t)nm];
        if (rnd() % 32 == 0) {
            xq_pos_do_null(&pos, &undos[n]);
            history[n] = 0;
            continue;
        }
        if (xq_pos_do_move(&pos, m, &undos[n]) != XQ_OK) return 1;
        history[n] = m;
    }
    uint8_t counts[PLIES + 1];
    xq_rep_info info[PLIES + 1];
    xq_facts facts[PLIES];
    int checks[2];
    int plies[8];
    if (xq_repetition_counts(&pos, undos, n, counts) < 0) return 1;
    if (xq_repetition_loops(&pos, undos, n, 2, XQ_FACTS_CXA | XQ_FACTS_KILL, info) < 0) return 1;
    if (xq_repetition_loops(&pos, undos, n, 3, 0, info) < 0) return 1;
    if (n && xq_history_facts(&pos, undos, n, 0, n, XQ_FACTS_KILL, facts, PLIES) != n) return 1;
    if (xq_history_checks(&pos, undos, n, 0, n, checks) != XQ_OK) return 1;
    if (xq_repetition_plies(&pos, undos, n, n, plies, 8) < 0) return 1;
    /* Bad ranges are refused, not followed. */
    if (xq_history_facts(&pos, undos, n, 0, n + 1, 0, facts, PLIES) >= 0) return 1;
    /* Undo everything: the start position must come back. */
    for (int i = n - 1; i >= 0; i--) {
        if (undos[i].move) { if (xq_pos_undo_move(&pos, &undos[i]) != XQ_OK) return 1; }
        else xq_pos_undo_null(&pos, &undos[i]);
    }
    if (xq_pos_key(&pos) != xq_pos_key(start)) return 1;
    /* The text replay on random text: never more plies than asked, stop inside the text. */
    char text[160];
    size_t len = 0;
    while (len < sizeof text - 4) {
        if (rnd() % 3 == 0) {
            const char *c = chinese[rnd() % (sizeof chinese / sizeof *chinese)];
            size_t k = strlen(c);
            memcpy(text + len, c, k);
            len += k;
        } else if (rnd() % 8 == 0) {
            text[len++] = (char)(rnd() & 0xFF);
        } else {
            text[len++] = text_alphabet[rnd() % (sizeof text_alphabet - 1)];
        }
    }
    xq_pos replay = *start;
    size_t stop = 0;
    int played = xq_play_text(&replay, text, len, undos, PLIES, &stop);
    if (played < 0 || played > PLIES || stop > len) return 1;
    return 0;
}

/* xq_pgn_game_starts on a mutated piece of PGN text, in both encodings: offsets in range and increasing; and
   xq_utf8_plain on it (0 or 1; under ASan, no read past the end). */
static int fuzz_scan(void) {
    static const char base[] = "[Event \"a\"]\n\n1. h2e2 {c} h9g7 *\n\n[Site \"\xb0{\"]\n\n1. \xe7\x82\xae ; x\n *\n";
    static const char marks[] = "{};[]\"\n\n \t\r%\x81\xb0\xe7";
    char buf[sizeof base + 16];
    size_t len = sizeof base - 1;
    memcpy(buf, base, len);
    for (int e = 0, edits = 1 + (int)(rnd() % 6); e < edits; e++) {
        size_t at = (size_t)(rnd() % len);
        buf[at] = (rnd() & 1) ? (char)(rnd() & 0xFF) : marks[rnd() % (sizeof marks - 1)];
    }
    if (rnd() & 1) len = (size_t)(rnd() % (len + 1));
    int plain = xq_utf8_plain(buf, len);
    if (plain != 0 && plain != 1) return 1;
    size_t starts[16];
    for (int enc = XQ_SCAN_UTF8; enc <= XQ_SCAN_DOUBLE_BYTE; enc++) {
        int comment = (int)(rnd() & 1);
        long n = xq_pgn_game_starts(buf, len, enc, &comment, starts, 16);
        if (n == XQ_SCAN_UNDECIDED) continue;
        if (n < 0 || n > 16 || (comment != 0 && comment != 1)) return 1;
        for (long i = 0; i < n; i++)
            if (starts[i] >= len || (i && starts[i] <= starts[i - 1])) return 1;
    }
    return 0;
}

static int fuzz(long iterations, uint64_t seed) {
    static const char alphabet[] = "kabnrcpKABNRCPheHE0123456789/ -wbr\t\n\0x";
    char buf[256];
    long parsed = 0;
    rng_state = seed ? seed : 0x9E3779B97F4A7C15ull;
    for (long it = 0; it < iterations; it++) {
        const char *base = SEEDS[rnd() % (sizeof SEEDS / sizeof *SEEDS)];
        size_t len = strlen(base);
        memcpy(buf, base, len);
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = len ? (size_t)(rnd() % len) : 0;
            switch (rnd() % 5) {
            case 0: if (len) buf[at] = (char)(rnd() & 0xFF); break;
            case 1: if (len) buf[at] = alphabet[rnd() % (sizeof alphabet - 1)]; break;
            case 2: if (len < sizeof buf - 1) { memmove(buf + at + 1, buf + at, len - at); buf[at] = alphabet[rnd() % (sizeof alphabet - 1)]; len++; } break;
            case 3: if (len) { memmove(buf + at, buf + at + 1, len - at - 1); len--; } break;
            default: len = at; break;
            }
        }
        if (fuzz_scan() != 0) { fprintf(stderr, "xq_pgn_game_starts gave bad offsets\n"); return 1; }
        xq_pos pos;
        size_t off = 0;
        unsigned flags = (rnd() & 1) ? XQ_FEN_ALLOW_NO_KING : 0;
        int st = xq_pos_set_fen_flags(&pos, buf, len, &off, flags);
        if (st == XQ_E_FEN_SYNTAX && off > len) { fprintf(stderr, "offset %zu beyond input %zu\n", off, len); return 1; }
        if (st != XQ_OK) continue;
        parsed++;
        char out[XQ_FEN_MAX];
        xq_pos again;
        int n = xq_pos_fen(&pos, out, sizeof out);
        if (n < 0 || xq_pos_set_fen_flags(&again, out, (size_t)n, NULL, flags) != XQ_OK ||
            xq_pos_key(&again) != xq_pos_key(&pos) || xq_pos_key(&pos) != xq_pos_key_recompute(&pos)) {
            fprintf(stderr, "round trip failed for %.*s\n", (int)len, buf);
            return 1;
        }
        /* The strict reader and xq_pos_check agree on which positions have both kings. */
        int both_kings = pos.king_sq[XQ_RED] != XQ_SQ_NONE && pos.king_sq[XQ_BLACK] != XQ_SQ_NONE;
        if ((xq_pos_set_fen(&again, out, (size_t)n, NULL) == XQ_OK) != both_kings ||
            (xq_pos_check(&pos) == XQ_OK) != both_kings) {
            fprintf(stderr, "king check disagrees for %s\n", out);
            return 1;
        }
        xq_move moves[XQ_MAX_MOVES];
        int nm = xq_gen_legal(&pos, moves, XQ_MAX_MOVES);
        if (nm < 0 || nm != xq_count_legal(&pos)) { fprintf(stderr, "movegen failed for %s\n", out); return 1; }
        for (int i = 0; i < nm; i++) {
            xq_undo u;
            if (xq_pos_do_move(&pos, moves[i], &u) != XQ_OK) { fprintf(stderr, "do_move failed for %s\n", out); return 1; }
            xq_pos_undo_move(&pos, &u);
        }
        (void)xq_perft(&pos, 2, 1);
        if (exercise_history(&pos) != 0) { fprintf(stderr, "history functions failed for %s\n", out); return 1; }
    }
    printf("fuzz: %ld inputs, %ld parsed, no failures\n", iterations, parsed);
    return 0;
}

int main(int argc, char **argv) {
    int depth = 4, divide = 0, bulk = 1;
    long hash_mb = 0, verify = 0;
    const char *fen = START;
    xq_init();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc) depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--divide")) divide = 1;
        else if (!strcmp(argv[i], "--no-bulk")) bulk = 0;
        else if (!strcmp(argv[i], "--hash") && i + 1 < argc) hash_mb = atol(argv[++i]);
        else if (!strcmp(argv[i], "--hash-verify") && i + 1 < argc) verify = atol(argv[++i]);
        else if (!strcmp(argv[i], "--fen-file") && i + 1 < argc) return fen_file(argv[++i]);
        else if (!strcmp(argv[i], "--fuzz") && i + 1 < argc)
            return fuzz(atol(argv[i + 1]), i + 2 < argc ? strtoull(argv[i + 2], NULL, 10) : 0);
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: xqperft [-d DEPTH] [--divide] [--no-bulk] [--hash MB [--hash-verify N]] [FEN]\n"
                   "       xqperft --fen-file FILE\n       xqperft --fuzz N [SEED]\n");
            return 0;
        } else fen = argv[i];
    }
    xq_pos pos;
    size_t off = 0;
    int st = xq_pos_set_fen(&pos, fen, strlen(fen), &off);
    if (st != XQ_OK) {
        fprintf(stderr, "bad FEN (%s) at byte %zu: %s\n", xq_status_str(st), off, fen);
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t nodes = 0;
    if (divide) {
        xq_move moves[XQ_MAX_MOVES];
        uint64_t counts[XQ_MAX_MOVES];
        int n = xq_perft_divide(&pos, depth, bulk, moves, counts, XQ_MAX_MOVES);
        for (int i = 0; i < n; i++) {
            char name[5];
            move_name(moves[i], name);
            printf("%s: %llu\n", name, (unsigned long long)counts[i]);
            nodes += counts[i];
        }
    } else if (hash_mb > 0) {
        size_t bytes = (size_t)hash_mb << 20;
        void *table = calloc(bytes, 1);
        if (!table) { fprintf(stderr, "no memory for a %ld MiB table\n", hash_mb); return 1; }
        st = xq_perft_hashed(&pos, depth, table, bytes, verify > 0 ? (uint32_t)verify : 0, NULL, &nodes);
        free(table);
        if (st != XQ_OK) { fprintf(stderr, "xq_perft_hashed: %s\n", xq_status_str(st)); return 1; }
    } else {
        nodes = xq_perft(&pos, depth, bulk);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("nodes %llu\ntime %.3f s\nMnps %.1f\n", (unsigned long long)nodes, s, s > 0 ? (double)nodes / s / 1e6 : 0.0);
    return 0;
}
