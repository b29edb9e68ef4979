/*
 * xqbatch.c - the batch API from C: legal moves, perft, packed records and
 * the move index over several positions in one call each.  Checks its own
 * results (exit status 1 on a mismatch), so CI can run it under the
 * sanitizers.  Valid C11 and C++.
 */
#include <stdio.h>
#include <string.h>

#include "xq.h"

#define N 4

static const char *const FENS[N] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "not a fen",
    "4ka3/4cN1r1/3R5/p1p5p/9/4C4/P3P3c/B3B4/4A4/3AK4 b - - 4 24",
};
/* perft(2) of each position (0 for the bad FEN). */
static const uint64_t PERFT2[N] = {1920, 1128, 0, 212};

static int failures;

static void expect(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "FAILED: %s\n", what);
        failures++;
    }
}

int main(void) {
    xq_init();

    /* FEN input: the texts back to back plus N + 1 offsets. */
    char text[4 * 128];
    int64_t offsets[N + 1];
    size_t used = 0;
    for (int i = 0; i < N; i++) {
        size_t len = strlen(FENS[i]);
        offsets[i] = (int64_t)used;
        memcpy(text + used, FENS[i], len);
        used += len;
    }
    offsets[N] = (int64_t)used;
    xq_batch_in in;
    memset(&in, 0, sizeof in);
    in.kind = XQ_IN_FEN;
    in.count = N;
    in.fen_text = text;
    in.fen_offsets = offsets;

    /* Legal moves, CSR style, and the per-item status. */
    static xq_move moves[N * XQ_MAX_MOVES];
    int64_t counts[N];
    int8_t status[N];
    int64_t total = xq_batch_legal_moves(&in, 0, N, moves, N * XQ_MAX_MOVES, counts, status);
    expect(total > 0, "legal moves returned a count");
    expect(status[0] == XQ_OK && status[1] == XQ_OK && status[3] == XQ_OK, "good FENs read");
    expect(status[2] == XQ_E_FEN_SYNTAX, "bad FEN reported as XQ_E_FEN_SYNTAX");
    expect(counts[0] == 44 && counts[2] == 0, "44 moves at the start, none for the bad FEN");
    int64_t sum = 0;
    for (int i = 0; i < N; i++) sum += counts[i];
    expect(sum == total, "counts add up");

    /* Every generated move has a policy index, and the index inverts. */
    for (int64_t k = 0; k < total; k++) {
        int idx = xq_move_index(moves[k]);
        expect(idx >= 0 && idx < XQ_MOVE_INDEX_NB && xq_move_index_move(idx) == moves[k], "move index");
        expect(xq_move_index(xq_move_rotate(moves[k])) >= 0, "rotated move index");
    }

    /* Perft, split into two ranges as two threads would. */
    uint64_t nodes[N];
    expect(xq_batch_perft(&in, 0, 2, 2, 1, nodes, status) == XQ_OK, "perft range 1");
    expect(xq_batch_perft(&in, 2, N, 2, 1, nodes, status) == XQ_OK, "perft range 2");
    for (int i = 0; i < N; i++) expect(nodes[i] == PERFT2[i], "perft(2) values");

    /* Packed records: pack, then read back and compare keys and FENs. */
    uint8_t packed[N * XQ_PACKED_SIZE];
    uint64_t keys[N], keys2[N];
    expect(xq_batch_pack(&in, 0, N, packed, status) == XQ_OK, "pack");
    expect(xq_batch_zobrist(&in, 0, N, keys, status) == XQ_OK, "keys from FENs");
    xq_batch_in pin;
    memset(&pin, 0, sizeof pin);
    pin.kind = XQ_IN_PACKED;
    pin.count = N;
    pin.packed = packed;
    expect(xq_batch_zobrist(&pin, 0, N, keys2, status) == XQ_OK, "keys from packed");
    expect(status[2] == XQ_E_FEN_POSITION, "the all-zero record of the bad FEN is no position");
    for (int i = 0; i < N; i++) expect(keys[i] == keys2[i], "same keys");
    char fens[N * XQ_FEN_MAX];
    int64_t n = xq_batch_fens(&pin, 0, N, fens, (int64_t)sizeof fens, status);
    expect(n > 0 && fens[n - 1] == '\n', "FENs written");
    expect(n > 0 && strncmp(fens, FENS[0], strlen(FENS[0])) == 0, "first FEN round-trips");

    /* Misuse is refused, not crashed on. */
    expect(xq_batch_perft(&in, 0, N + 1, 1, 1, nodes, status) == XQ_E_ARG, "range past the end");
    expect(xq_batch_perft(NULL, 0, 0, 1, 1, nodes, status) == XQ_E_ARG, "NULL input");

    printf("%lld legal moves over %d positions, perft(2) %llu + %llu, %s\n", (long long)total, N,
           (unsigned long long)nodes[0], (unsigned long long)nodes[1], failures ? "FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
