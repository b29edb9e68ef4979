/*
 * xqthink.c - checks of the core's search (xq_search.h) through the public
 * header: every answer is a legal move, mates are found and scored, limits
 * and the stop flag end a search, bad arguments get a status.  Exits 1 with
 * a message on the first failed check.  Valid C11 and C++.
 *
 *   xqthink [-d DEPTH] [FEN]   also prints the search of one position
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xq.h"

static xq_tt_entry table[1 << 14];
static xq_search state;
static int failures = 0;

#define CHECK(cond, what)                                         \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "xqthink: check failed: %s\n", what); \
            failures++;                                           \
        }                                                         \
    } while (0)

static void move_name(xq_move m, char out[5]) {
    int from = m >> 7, to = m & 127;
    out[0] = (char)('a' + from % 9);
    out[1] = (char)('0' + from / 9);
    out[2] = (char)('a' + to % 9);
    out[3] = (char)('0' + to / 9);
    out[4] = 0;
}

static int set(xq_pos *pos, const char *fen) {
    return xq_pos_set_fen(pos, fen, strlen(fen), NULL) == XQ_OK;
}

/* Searches fen to depth; returns the last status. */
static int think(const char *fen, int depth, int print) {
    xq_pos pos;
    if (!set(&pos, fen)) return XQ_E_ARG;
    if (xq_search_begin(&state, &pos, NULL, 0, NULL, 0) != XQ_OK) return XQ_E_ARG;
    int st = XQ_OK;
    for (int d = 1; d <= depth && st == XQ_OK; d++) {
        st = xq_search_depth(&state, d);
        if (print) {
            char name[5];
            move_name(state.best, name);
            printf("depth %d score %d nodes %llu best %s\n", state.depth, state.score,
                   (unsigned long long)state.nodes, name);
        }
        if (!state.best) break;
    }
    if (state.best) CHECK(xq_pos_is_legal(&pos, state.best), "the best move is legal");
    return st;
}

int main(int argc, char **argv) {
    xq_init();
    CHECK(xq_search_init(&state, table, sizeof table / sizeof table[0]) == XQ_OK, "init");
    const char *start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    int depth = 0;
    const char *fen = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc) depth = atoi(argv[++i]);
        else fen = argv[i];
    }
    if (depth > 0 || fen) {
        int st = think(fen ? fen : start, depth > 0 ? depth : 5, 1);
        if (st < 0) fprintf(stderr, "xqthink: %s\n", xq_status_str(st));
        return st < 0 || failures;
    }

    /* The start position: a legal move at every depth. */
    CHECK(think(start, 4, 0) == XQ_OK, "start position to depth 4");
    CHECK(state.best != 0 && state.pv_len >= 1 && state.pv[0] == state.best, "a principal variation");

    /* Mate in one (a rook move that leaves Black no legal move: xiangqi scores stalemate as a loss). */
    CHECK(think("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1", 3, 0) == XQ_OK, "mate in one searched");
    CHECK(state.score == XQ_MATE_SCORE - 1, "mate in one scored as a mate one ply away");

    /* Mated: no legal move at the root. */
    CHECK(think("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1", 2, 0) == XQ_OK, "mated root searched");
    CHECK(state.best == 0 && state.score == -XQ_MATE_SCORE, "no move and a mated score at a mated root");

    /* A node limit stops the search, with a legal move to play. */
    xq_pos pos;
    set(&pos, start);
    state.node_limit = 1;
    xq_search_begin(&state, &pos, NULL, 0, NULL, 0);
    CHECK(xq_search_depth(&state, 5) == XQ_SEARCH_STOPPED, "node limit stops");
    CHECK(state.best && xq_pos_is_legal(&pos, state.best), "a legal move after a 1-node search");
    state.node_limit = 0;

    /* The stop flag, set before the search, stops it at once. */
    state.stop = 1;
    xq_search_begin(&state, &pos, NULL, 0, NULL, 0);
    CHECK(xq_search_depth(&state, 30) == XQ_SEARCH_STOPPED, "stop flag stops");
    CHECK(state.best && xq_pos_is_legal(&pos, state.best), "a legal move after a stopped search");
    state.stop = 0;

    /* A time limit: 30 ms at depth 40 must stop, and soon. */
    state.time_limit_ms = 30;
    xq_search_begin(&state, &pos, NULL, 0, NULL, 0);
    int st = XQ_OK;
    for (int d = 1; d <= 40 && st == XQ_OK; d++) st = xq_search_depth(&state, d);
    CHECK(st == XQ_SEARCH_STOPPED, "time limit stops");
    CHECK(xq_search_elapsed_ms(&state) < 30 + 200, "time limit honoured");
    state.time_limit_ms = 0;

    /* Root restriction: only the given legal moves are searched. */
    xq_move h0h4 = (xq_move)(7 << 7 | (4 * 9 + 7));             /* not legal: a horse move it cannot make */
    xq_move h2e2 = (xq_move)((2 * 9 + 7) << 7 | (2 * 9 + 4));
    xq_move list[2] = {h0h4, h2e2};
    xq_search_begin(&state, &pos, NULL, 0, list, 2);
    CHECK(xq_search_depth(&state, 3) == XQ_OK && state.best == h2e2, "root moves restrict the search");
    xq_search_begin(&state, &pos, NULL, 0, list, 1);
    CHECK(xq_search_depth(&state, 3) == XQ_OK && state.best == 0, "no legal root move left");

    /* Repetition against the game history: Black, a rook down, can step
       into a position the game has seen (a loop where nobody breaks a rule:
       a draw score) instead of losing. */
    xq_pos lone;
    set(&lone, "4k4/9/9/9/R8/9/9/9/9/3K5 b - - 10 1");
    xq_search_begin(&state, &lone, NULL, 0, NULL, 0);
    CHECK(xq_search_depth(&state, 3) == XQ_OK && state.score < -500, "a rook down without history");
    xq_move e9e8 = (xq_move)((9 * 9 + 4) << 7 | (8 * 9 + 4)), e8e9 = (xq_move)((8 * 9 + 4) << 7 | (9 * 9 + 4));
    xq_move a5a6 = (xq_move)((5 * 9) << 7 | (6 * 9)), a6a5 = (xq_move)((6 * 9) << 7 | (5 * 9));
    xq_move loop[4] = {e9e8, a5a6, e8e9, a6a5};
    xq_undo undos[4];
    CHECK(xq_pos_play_codes(&lone, loop, 4, undos, 1) == 4, "the loop is legal");
    CHECK(xq_search_begin(&state, &lone, undos, 4, NULL, 0) == XQ_OK, "history accepted");
    CHECK(xq_search_depth(&state, 3) == XQ_OK && state.best == e9e8 && state.score == 0,
          "repeating the game's position scores as a draw");

    /* Perpetual check loses: Red, a rook down, may not check from h9 and h8
       for ever (under both rule books). Black completing the loop a first
       time wins no mate (Red, to move, has not repeated and may vary), but
       Red must give up its checks; the third time, the game ends and Black
       wins. */
    /* A fresh search and an empty table: what the timed search above left in them (the table, the move-ordering
       statistics) depends on the machine's speed. */
    memset(table, 0, sizeof table);
    CHECK(xq_search_init(&state, table, sizeof table / sizeof table[0]) == XQ_OK, "init again");
    xq_pos checker;
    set(&checker, "3k5/7R1/9/9/9/rr7/9/9/9/3AKA3 w - - 0 1");
    xq_move h8h9 = (xq_move)((8 * 9 + 7) << 7 | (9 * 9 + 7)), h9h8 = (xq_move)((9 * 9 + 7) << 7 | (8 * 9 + 7));
    xq_move d9d8 = (xq_move)((9 * 9 + 3) << 7 | (8 * 9 + 3)), d8d9 = (xq_move)((8 * 9 + 3) << 7 | (9 * 9 + 3));
    xq_move d8d7 = (xq_move)((8 * 9 + 3) << 7 | (7 * 9 + 3));
    xq_move checks[4] = {h8h9, d9d8, h9h8, d8d9};
    CHECK(xq_pos_play_codes(&checker, checks, 3, undos, 1) == 3, "three plies of the loop");
    /* The two rule books as the search reads them: facts flags, verdict flags (xiangqi.rules' AXF and CXA). */
    const int books[2][2] = {{0, XQ_RULE_SAME_VICTIM}, {XQ_FACTS_CXA | XQ_FACTS_KILL, XQ_RULE_MIXED | XQ_RULE_JOINT}};
    for (int b = 0; b < 2; b++) {
        state.facts_flags = books[b][0];
        state.verdict_flags = books[b][1];
        CHECK(xq_search_begin(&state, &checker, undos, 3, NULL, 0) == XQ_OK, "checked side's turn");
        /* The king's step back to d9 and its step to d7 both keep the rook: the choice is the search's. */
        CHECK(xq_search_depth(&state, 3) == XQ_OK && (state.best == d8d9 || state.best == d8d7) &&
              state.score > 300 && state.score < XQ_MATE_BOUND,
              "completing the opponent's perpetual check once keeps the extra rook, but is no mate");
    }
    {
        xq_pos third = checker;
        xq_undo seven[7];
        xq_move twice[7] = {h8h9, d9d8, h9h8, d8d9, h8h9, d9d8, h9h8};
        set(&third, "3k5/7R1/9/9/9/rr7/9/9/9/3AKA3 w - - 0 1");
        CHECK(xq_pos_play_codes(&third, twice, 7, seven, 1) == 7, "the loop and three plies more");
        for (int b = 0; b < 2; b++) {
            state.facts_flags = books[b][0];
            state.verdict_flags = books[b][1];
            CHECK(xq_search_begin(&state, &third, seven, 7, NULL, 0) == XQ_OK, "checked side's turn again");
            CHECK(xq_search_depth(&state, 3) == XQ_OK && state.best == d8d9 && state.score == XQ_MATE_SCORE - 1,
                  "completing the opponent's perpetual check a third time wins");
        }
    }
    CHECK(xq_pos_play_codes(&checker, checks + 3, 1, undos + 3, 1) == 1, "the loop closed");
    for (int b = 0; b < 2; b++) {
        state.facts_flags = books[b][0];
        state.verdict_flags = books[b][1];
        CHECK(xq_search_begin(&state, &checker, undos, 4, NULL, 0) == XQ_OK, "checking side's turn");
        CHECK(xq_search_depth(&state, 4) == XQ_OK && state.best != h8h9 && state.score > -XQ_MATE_BOUND,
              "the checking side varies");
    }
    state.facts_flags = books[0][0];
    state.verdict_flags = books[0][1];

    /* Random playouts: every answer legal, with the game's moves passed for
       repetitions, a small table that collides often, and node limits that
       stop searches at arbitrary points. */
    static xq_tt_entry small[61];
    CHECK(xq_search_init(&state, small, sizeof small / sizeof small[0]) == XQ_OK, "init small table");
    unsigned long rng = 12345;
    for (int game = 0; game < 8; game++) {
        xq_pos g;
        set(&g, start);
        xq_undo history[200];
        for (int ply = 0; ply < 200; ply++) {
            xq_move legal[XQ_MAX_MOVES];
            int n = xq_gen_legal(&g, legal, XQ_MAX_MOVES);
            state.node_limit = 200 + (uint64_t)(rng % 3000);
            CHECK(xq_search_begin(&state, &g, history, ply, NULL, 0) == XQ_OK, "begin in a playout");
            int st2 = XQ_OK;
            for (int d = 1; d <= 8 && st2 == XQ_OK; d++) {
                st2 = xq_search_depth(&state, d);
                if (!state.best) break;
            }
            CHECK(st2 >= 0, "search status in a playout");
            if (n == 0) {
                CHECK(state.best == 0, "no move where none is legal");
                break;
            }
            if (!xq_pos_is_legal(&g, state.best)) {
                char fen[XQ_FEN_MAX], name[5];
                xq_pos_fen(&g, fen, sizeof fen);
                move_name(state.best, name);
                fprintf(stderr, "xqthink: illegal answer %s (status %d, depth %d) in %s\n", name, st2, state.depth, fen);
            }
            CHECK(xq_pos_is_legal(&g, state.best), "a legal move in a playout");
            /* Play the engine's move half the time, a random legal one otherwise. */
            rng = rng * 6364136223846793005UL + 1442695040888963407UL;
            xq_move m = (rng >> 33) & 1 ? state.best : legal[(rng >> 40) % (unsigned long)n];
            CHECK(xq_pos_do_move(&g, m, &history[ply]) == XQ_OK, "playout move");
        }
    }
    state.node_limit = 0;

    /* Bad arguments get a status, never a crash. */
    CHECK(xq_search_init(NULL, NULL, 0) == XQ_E_ARG, "init NULL");
    CHECK(xq_search_init(&state, NULL, 5) == XQ_E_ARG, "init NULL table with a size");
    CHECK(xq_search_depth(NULL, 3) == XQ_E_ARG, "depth NULL");
    static xq_search zeroed;
    CHECK(xq_search_depth(&zeroed, 3) == XQ_E_ARG, "depth on a state never begun");
    CHECK(xq_search_begin(&state, NULL, NULL, 0, NULL, 0) == XQ_E_ARG, "begin NULL position");
    CHECK(xq_search_begin(&state, &pos, NULL, 3, NULL, 0) == XQ_E_ARG, "begin NULL keys with a count");
    CHECK(xq_search_begin(&state, &pos, NULL, -1, NULL, 0) == XQ_E_ARG, "begin negative count");
    xq_pos broken = pos;
    broken.board[40] = 14;  /* a piece the bitboards do not know about */
    CHECK(xq_search_begin(&state, &broken, NULL, 0, NULL, 0) == XQ_E_FEN_POSITION, "begin broken position");
    CHECK(xq_evaluate(&broken) == 0 && xq_evaluate(NULL) == 0, "evaluate refuses broken positions");
    CHECK(xq_search_init(&state, NULL, 0) == XQ_OK, "init without a table");
    CHECK(xq_search_depth(&state, 3) == XQ_E_ARG, "depth before begin");
    CHECK(xq_search_begin(&state, &pos, NULL, 0, NULL, 0) == XQ_OK, "begin without a table");
    CHECK(xq_search_depth(&state, 0) == XQ_E_ARG && xq_search_depth(&state, XQ_SEARCH_MAX_PLY) == XQ_E_ARG,
          "depth out of range");
    CHECK(xq_search_depth(&state, 3) == XQ_OK && xq_pos_is_legal(&pos, state.best), "search without a table");

    if (failures) return 1;
    printf("xqthink: all checks passed\n");
    return 0;
}
