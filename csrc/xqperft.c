#define _POSIX_C_SOURCE 199309L
/*
 * xqperft.c - command-line perft / divide driver for C-only debugging and
 * sanitizer runs.
 *
 *   xqperft [-d DEPTH] [--divide] [--no-bulk] [FEN]
 *   xqperft --fen-file FILE     parse every line of FILE as a FEN (fuzz
 *                               corpus / malformed input): prints the status
 *                               and, for good FENs, perft(2).
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

int main(int argc, char **argv) {
    int depth = 4, divide = 0, bulk = 1;
    const char *fen = START;
    xq_init();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc) depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--divide")) divide = 1;
        else if (!strcmp(argv[i], "--no-bulk")) bulk = 0;
        else if (!strcmp(argv[i], "--fen-file") && i + 1 < argc) return fen_file(argv[++i]);
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: xqperft [-d DEPTH] [--divide] [--no-bulk] [FEN]\n       xqperft --fen-file FILE\n");
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
    } else {
        nodes = xq_perft(&pos, depth, bulk);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("nodes %llu\ntime %.3f s\nMnps %.1f\n", (unsigned long long)nodes, s, s > 0 ? (double)nodes / s / 1e6 : 0.0);
    return 0;
}
