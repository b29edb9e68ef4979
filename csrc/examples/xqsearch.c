/*
 * xqsearch.c - a tiny alpha-beta search on the xiangqi core: an example of
 * engine code that links libxq.a and uses only the public header.
 *
 *   xqsearch [-d DEPTH] [FEN]
 *
 * Negamax with alpha-beta, captures first (most valuable victim), a capture
 * quiescence search and a material evaluation.  A side with no legal move
 * loses (checkmate or stalemate, as xiangqi rules say).  Prints the best
 * move, its score and the node count.  Valid C11 and C++.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xq.h"

#define MATE 30000
#define INF 32000

static const int VALUE[8] = {0, 100, 200, 200, 400, 450, 900, 0};

typedef struct {
    long nodes;
} search_state;

/* Material from the side to move's view; a pawn over the river counts double. */
static int evaluate(const xq_pos *pos) {
    int score = 0;
    for (int s = 0; s < XQ_SQUARE_NB; s++) {
        int pc = pos->board[s];
        if (!pc) continue;
        int color = pc >> 3, type = pc & 7, v = VALUE[type];
        if (type == XQ_PAWN && (color == XQ_RED ? s / 9 >= 5 : s / 9 <= 4)) v *= 2;
        score += color == pos->side ? v : -v;
    }
    return score;
}

/* Sorts moves by the value of the piece they capture, captures first. */
static void order_moves(const xq_pos *pos, xq_move *moves, int n) {
    int keys[XQ_MAX_MOVES];
    for (int i = 0; i < n; i++) keys[i] = VALUE[pos->board[moves[i] & 127] & 7];
    for (int i = 1; i < n; i++) {
        xq_move m = moves[i];
        int k = keys[i], j = i - 1;
        while (j >= 0 && keys[j] < k) {
            moves[j + 1] = moves[j];
            keys[j + 1] = keys[j];
            j--;
        }
        moves[j + 1] = m;
        keys[j + 1] = k;
    }
}

static int quiesce(xq_pos *pos, int alpha, int beta, int ply, search_state *st) {
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_legal(pos, moves, XQ_MAX_MOVES);
    st->nodes++;
    if (n == 0) return -MATE + ply;
    int stand = evaluate(pos);
    if (stand >= beta) return stand;
    if (stand > alpha) alpha = stand;
    order_moves(pos, moves, n);
    for (int i = 0; i < n && pos->board[moves[i] & 127]; i++) {
        xq_undo undo;
        if (xq_pos_do_move(pos, moves[i], &undo) != XQ_OK) continue;
        int score = -quiesce(pos, -beta, -alpha, ply + 1, st);
        xq_pos_undo_move(pos, &undo);
        if (score >= beta) return score;
        if (score > alpha) alpha = score;
    }
    return alpha;
}

static int search(xq_pos *pos, int depth, int alpha, int beta, int ply, search_state *st, xq_move *best) {
    if (depth == 0) return quiesce(pos, alpha, beta, ply, st);
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_legal(pos, moves, XQ_MAX_MOVES);
    st->nodes++;
    if (n == 0) return -MATE + ply;
    order_moves(pos, moves, n);
    int best_score = -INF;
    for (int i = 0; i < n; i++) {
        xq_undo undo;
        if (xq_pos_do_move(pos, moves[i], &undo) != XQ_OK) continue;
        int score = -search(pos, depth - 1, -beta, -alpha, ply + 1, st, NULL);
        xq_pos_undo_move(pos, &undo);
        if (score > best_score) {
            best_score = score;
            if (best) *best = moves[i];
        }
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    return best_score;
}

static void move_name(xq_move m, char out[5]) {
    int from = m >> 7, to = m & 127;
    out[0] = (char)('a' + from % 9);
    out[1] = (char)('0' + from / 9);
    out[2] = (char)('a' + to % 9);
    out[3] = (char)('0' + to / 9);
    out[4] = 0;
}

int main(int argc, char **argv) {
    const char *fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    int depth = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc) depth = atoi(argv[++i]);
        else fen = argv[i];
    }
    if (depth < 1) depth = 1;
    xq_init();
    xq_pos pos;
    size_t bad_at = 0;
    int status = xq_pos_set_fen(&pos, fen, strlen(fen), &bad_at);
    if (status != XQ_OK) {
        fprintf(stderr, "bad FEN (%s) at byte %zu: %s\n", xq_status_str(status), bad_at, fen);
        return 1;
    }
    search_state st = {0};
    xq_move best = 0;
    int score = search(&pos, depth, -INF, INF, 0, &st, &best);
    if (!best) {
        printf("no legal move: %s loses\n", pos.side == XQ_RED ? "red" : "black");
        return 0;
    }
    char name[5];
    move_name(best, name);
    if (score > MATE - 100) printf("bestmove %s score mate %d nodes %ld\n", name, (MATE - score + 1) / 2, st.nodes);
    else if (score < -MATE + 100) printf("bestmove %s score mated %d nodes %ld\n", name, (MATE + score) / 2, st.nodes);
    else printf("bestmove %s score cp %d nodes %ld\n", name, score, st.nodes);
    return 0;
}
