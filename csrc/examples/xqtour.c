/*
 * xqtour.c - a short example of each function of the public headers that
 * the other examples do not use (xq.h, the batch loops and packed records
 * of xq_batch.h, the repetition facts of xq_rules.h, replaying move text,
 * scanning PGN text, clearing the search's tables), through the public
 * header.  Every example checks
 * its own result: the program prints what it found and exits 1 with a
 * message on the first wrong answer.  Valid C11 and C++.
 */
#include <stdio.h>
#include <string.h>

#include "xq.h"

static int failures = 0;

#define CHECK(cond, what)                                         \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "xqtour: check failed: %s\n", what); \
            failures++;                                           \
        }                                                         \
    } while (0)

#define START "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* The move from one ICCS square pair, e.g. mv("h2e2"). */
static xq_move mv(const char *iccs) {
    int from = (iccs[1] - '0') * 9 + (iccs[0] - 'a');
    int to = (iccs[3] - '0') * 9 + (iccs[2] - 'a');
    return (xq_move)(from << 7 | to);
}

static int popcount2(const uint64_t bb[2]) {
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (uint64_t b = bb[i]; b; b &= b - 1) n++;
    return n;
}

static int set(xq_pos *pos, const char *fen) {
    return xq_pos_set_fen(pos, fen, strlen(fen), NULL);
}

int main(void) {
    xq_init();
    xq_pos pos, copy;
    xq_undo undos[16];
    xq_move moves[XQ_MAX_MOVES];
    size_t stopped = 0;

    /* Version: the header's and the library's agree. */
    CHECK(strcmp(xq_version(), XQ_VERSION) == 0, "xq_version");

    /* Setting up without a king: accepted with the flag, refused without,
       and such a position fails the full check. */
    const char *no_black_king = "9/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    CHECK(set(&pos, no_black_king) == XQ_E_FEN_POSITION, "a FEN without a king is refused");
    CHECK(xq_pos_set_fen_flags(&pos, no_black_king, strlen(no_black_king), NULL,
                               XQ_FEN_ALLOW_NO_KING) == XQ_OK,
          "xq_pos_set_fen_flags accepts it with XQ_FEN_ALLOW_NO_KING");
    CHECK(xq_pos_check(&pos) == XQ_E_FEN_POSITION,
          "xq_pos_check refuses a position without a king");

    /* Copies, the full check, keys. */
    CHECK(set(&pos, START) == XQ_OK, "the start position");
    xq_pos_copy(&copy, &pos);
    CHECK(xq_pos_check(&copy) == XQ_OK, "xq_pos_check passes a position from set_fen");
    CHECK(xq_pos_key(&copy) == xq_pos_key(&pos), "a copy has the same key");
    CHECK(xq_pos_key(&pos) == xq_pos_key_recompute(&pos),
          "the incremental key is the recomputed one");

    /* Playing a list of moves, and a move stack. */
    xq_move line[3] = {mv("h2e2"), mv("h9g7"), mv("h0g2")};
    CHECK(xq_pos_play_codes(&pos, line, 3, undos, 1) == 3,
          "xq_pos_play_codes plays three legal moves");
    CHECK(xq_pos_key(&pos) == xq_pos_key_recompute(&pos), "the key follows the moves");
    xq_pos_copy(&pos, &copy);
    for (int i = 0; i < 3; i++) xq_pos_push(&pos, line[i], undos, i);
    CHECK(xq_pos_pop(&pos, line[1], undos, 2) == XQ_E_ARG,
          "xq_pos_pop refuses a move that is not the last one");
    for (int i = 2; i >= 0; i--)
        CHECK(xq_pos_pop(&pos, line[i], undos, i) == XQ_OK, "xq_pos_pop");
    CHECK(xq_pos_key(&pos) == xq_pos_key(&copy),
          "push then pop gives the start position back");

    /* The null move passes the turn. */
    xq_pos_do_null(&pos, &undos[0]);
    CHECK(pos.side == XQ_BLACK && xq_pos_key(&pos) != xq_pos_key(&copy),
          "xq_pos_do_null passes the turn");
    xq_pos_undo_null(&pos, &undos[0]);
    CHECK(pos.side == XQ_RED && xq_pos_key(&pos) == xq_pos_key(&copy), "xq_pos_undo_null");

    /* Pseudo-legal and legal moves: in the start position they are the same 44. */
    int pseudo = xq_gen_pseudo_legal(&pos, moves, XQ_MAX_MOVES);
    CHECK(pseudo == 44 && xq_count_legal(&pos) == 44, "44 pseudo-legal and 44 legal moves");
    CHECK(xq_gen_pseudo_legal(&pos, moves, 10) == XQ_E_BUFFER_SMALL,
          "a short buffer is refused");
    CHECK(xq_pos_is_pseudo_legal(&pos, mv("h2e2"))
              && !xq_pos_is_pseudo_legal(&pos, mv("h2h7")),
          "xq_pos_is_pseudo_legal: the cannon slides, but cannot take without a screen");

    /* Checks: a rook lift that checks, the checker, the attackers of a square. */
    CHECK(set(&pos, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1") == XQ_OK,
          "a position with both kings");
    CHECK(xq_gives_check(&pos, mv("a0a9")) && !xq_gives_check(&pos, mv("a0a1")),
          "xq_gives_check");
    xq_pos_do_move(&pos, mv("a0a9"), &undos[0]);
    uint64_t bb[2];
    xq_pos_checkers(&pos, bb);
    CHECK(xq_pos_in_check(&pos) && popcount2(bb) == 1 && (bb[1] >> (81 - 64) & 1),
          "the rook on a9 checks");
    xq_attackers_to(&pos, 9 * 9 + 3, XQ_RED, bb);  /* who attacks d9, the black king: the rook */
    CHECK(popcount2(bb) == 1, "xq_attackers_to");

    /* Pieces and attack counts. */
    CHECK(set(&pos, START) == XQ_OK, "the start position");
    xq_pos_pieces(&pos, XQ_RED, XQ_PAWN, bb);
    CHECK(popcount2(bb) == 5, "five red pawns");
    uint8_t counts[90];
    xq_attack_counts(&pos, XQ_RED, counts);
    CHECK(counts[9 * 9 + 1] == 1 && counts[9 * 9 + 7] == 1,
          "the red cannons hit both black horses");

    /* Perft, divide, and a perft another thread may stop. */
    int stop = 0;
    CHECK(xq_perft(&pos, 3, 1) == 79666 && xq_perft_stoppable(&pos, 2, 0, &stop) == 1920,
          "perft 3 and 2");
    uint64_t below[XQ_MAX_MOVES];
    int roots = xq_perft_divide(&pos, 2, 1, moves, below, XQ_MAX_MOVES);
    uint64_t total = 0;
    for (int i = 0; i < roots; i++) total += below[i];
    CHECK(roots == 44 && total == 1920,
          "xq_perft_divide: 44 root moves, 1920 nodes below them");
    stop = 1;
    CHECK(xq_perft_stoppable(&pos, 5, 1, &stop) < 133312995u, "a stopped perft gives up");

    /* Hashed perft: the caller's zeroed table (here 64 KiB on the stack), kept
       across calls; the second count takes its root from the table, and
       verify_every = 1 recounts every hit without it. */
    static uint64_t perft_table[8192];  /* 8192 words = 64 KiB */
    uint64_t hashed = 0;
    CHECK(xq_perft_hashed(&pos, 4, perft_table, sizeof perft_table, 0, NULL, &hashed) == XQ_OK && hashed == 3290240u &&
          xq_perft_hashed(&pos, 4, perft_table, sizeof perft_table, 1, NULL, &hashed) == XQ_OK && hashed == 3290240u,
          "xq_perft_hashed: perft 4 twice with one table");
    CHECK(xq_perft_hashed(&pos, 4, perft_table, XQ_PERFT_HASH_BUCKET - 1, 0, NULL, &hashed) == XQ_E_ARG,
          "xq_perft_hashed refuses a table smaller than one bucket");

    /* Packed records: 52 bytes that read back to the same position. */
    uint8_t record[XQ_PACKED_SIZE];
    xq_pos_pack(&pos, record);
    CHECK(xq_pos_unpack(&copy, record) == XQ_OK && xq_pos_key(&copy) == xq_pos_key(&pos),
          "pack, unpack");
    memset(record, 0, sizeof record);
    CHECK(xq_pos_unpack(&copy, record) == XQ_E_FEN_POSITION,
          "an all-zero record has no kings");

    /* Batch loops over positions (here two xq_pos structs): load one item back, then the
       attack maps, the planes and the legal-move masks of both, at their items' own offsets. */
    xq_pos two[2];
    CHECK(set(&two[0], START) == XQ_OK && set(&two[1], "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1") == XQ_OK,
          "two positions");
    xq_batch_in in;
    memset(&in, 0, sizeof in);
    in.kind = XQ_IN_POS;
    in.count = 2;
    in.pos = two;
    CHECK(xq_batch_load(&in, 1, &copy) == XQ_OK && xq_pos_key(&copy) == xq_pos_key(&two[1]),
          "xq_batch_load");
    CHECK(xq_batch_load(&in, 2, &copy) == XQ_E_ARG,
          "xq_batch_load refuses an item out of range");
    static uint8_t maps[2 * 180], planes[2 * XQ_PLANES_NB * 90], mask[2 * XQ_MOVE_INDEX_NB];
    int8_t status[2];
    uint64_t nodes[2], again[2];
    int go = 0;
    CHECK(xq_batch_perft(&in, 0, 2, 2, 1, nodes, status) == XQ_OK && nodes[0] == 1920 &&
          xq_batch_perft_stoppable(&in, 0, 2, 2, 1, again, status, &go) == XQ_OK &&
          again[0] == nodes[0] && again[1] == nodes[1],
          "xq_batch_perft, and a stoppable one left to run");
    go = 1;
    CHECK(xq_batch_perft_stoppable(&in, 0, 2, 5, 1, again, status, &go) == XQ_OK && again[0] < 133312995u,
          "a stopped batch perft gives up (partial counts)");
    CHECK(xq_batch_attack_maps(&in, 0, 2, maps, status) == XQ_OK, "xq_batch_attack_maps");
    long attacks = 0, expected = 0;
    for (int i = 0; i < 180; i++) attacks += maps[i];
    for (int color = 0; color < 2; color++) {
        xq_attack_counts(&two[0], color, counts);
        for (int i = 0; i < 90; i++) expected += counts[i];
    }
    CHECK(attacks == expected,
          "the first item's attack maps hold the counts of xq_attack_counts");
    CHECK(xq_batch_planes(&in, 0, 2, XQ_VIEW_SIDE_TO_MOVE, planes, status) == XQ_OK,
          "xq_batch_planes");
    long ones = 0;
    for (int i = 0; i < XQ_PLANES_NB * 90; i++) ones += planes[i];
    CHECK(ones == 32 + 90, "32 pieces, and the side plane all ones for Red to move");
    CHECK(xq_batch_legal_mask(&in, 0, 2, XQ_VIEW_SIDE_TO_MOVE, mask, status) == XQ_OK,
          "xq_batch_legal_mask");
    int marked = 0;
    for (int i = 0; i < XQ_MOVE_INDEX_NB; i++) marked += mask[i];
    CHECK(marked == 44 && status[0] == XQ_OK && status[1] == XQ_OK,
          "44 legal moves marked in the mask");

    /* The search's table and ordering counts, emptied for a new game. */
    static xq_tt_entry table[1024];
    static xq_search search;
    CHECK(xq_search_init(&search, table, 1024) == XQ_OK, "xq_search_init");
    xq_search_clear(&search);
    xq_tt_clear(table, 1024);

    /* Repetition facts (xq_rules.h), on the perpetual check of the rulings tutorial: the red
       rook checks from f5 and e5, the black king steps between e9 and f9, and after 8 plies
       the start position is back a third time. */
    const char *loop = "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9";
    CHECK(set(&pos, "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1") == XQ_OK,
          "the perpetual check's position");
    xq_facts facts[8];
    CHECK(xq_move_facts(&pos, mv("f5e5"), 0, &facts[0]) == XQ_OK && facts[0].check
              && !facts[0].n_chases,
          "xq_move_facts: f5e5 checks and chases nothing");
    CHECK(xq_play_text(&pos, loop, strlen(loop), undos, 16, &stopped) == 8,
          "the 8 plies of the loop");
    uint8_t occurrences[9];
    CHECK(xq_repetition_counts(&pos, undos, 8, occurrences) == 3 && occurrences[8] == 3
              && occurrences[4] == 2,
          "xq_repetition_counts: the position after ply 8 is there for the third time");
    int earlier[4];
    CHECK(xq_repetition_plies(&pos, undos, 8, 8, earlier, 4) == 2 && earlier[0] == 4
              && earlier[1] == 0,
          "xq_repetition_plies: the same position after plies 4 and 0");
    int checks[2];
    CHECK(xq_history_checks(&pos, undos, 8, 0, 8, checks) == XQ_OK && checks[XQ_RED] == 4
              && checks[XQ_BLACK] == 0,
          "xq_history_checks: Red checked with its 4 moves");
    CHECK(xq_history_facts(&pos, undos, 8, 0, 8, 0, facts, 8) == 8 && facts[6].check
              && !facts[7].check,
          "xq_history_facts: Red's moves check, Black's do not");
    xq_rep_info info[9];
    CHECK(xq_repetition_loops(&pos, undos, 8, 3, 0, info) >= 1 && info[8].loop_start == 0
              && (info[8].loop[XQ_RED] & XQ_LOOP_ALL_CHECK)
              && !(info[8].loop[XQ_BLACK] & XQ_LOOP_ALL_ATTACK),
          "xq_repetition_loops: in the loop of plies 0-8 every red move checks");
    int red = info[8].loop[XQ_RED] | info[8].loop_more[XQ_RED] << 8;
    int black = info[8].loop[XQ_BLACK] | info[8].loop_more[XQ_BLACK] << 8;
    CHECK(xq_loop_pattern(red, XQ_RULE_SAME_VICTIM) == XQ_PATTERN_CHECK
              && xq_loop_pattern(black, XQ_RULE_SAME_VICTIM) == XQ_PATTERN_ALLOWED,
          "xq_loop_pattern: Red checks perpetually (长将), Black's moves are allowed");
    int verdict = xq_loop_verdict(red, black, XQ_RULE_SAME_VICTIM);
    CHECK((verdict & 2) && (verdict & 1) == XQ_RED && verdict >> 2 == XQ_WHY_CHECK,
          "xq_loop_verdict: Red loses by perpetual check");
    CHECK(xq_history_from_opening(&pos, undos, 8) == 0,
          "xq_history_from_opening: this game was set up from another position");

    /* A chase: the black rook follows the unprotected red cannon from a3 to b3. */
    CHECK(set(&pos, "3akab2/9/r8/9/9/9/C3P4/9/9/2BAKAB2 w - - 0 1") == XQ_OK,
          "the perpetual chase's position");
    xq_pos_do_move(&pos, mv("a3b3"), &undos[0]);
    CHECK(xq_move_facts(&pos, mv("a7b7"), 0, &facts[0]) == XQ_OK && facts[0].n_chases == 1
              && facts[0].chases[0].victim == 3 * 9 + 1
              && facts[0].chases[0].reason == XQ_CHASE_UNPROTECTED,
          "a7b7 chases the unprotected cannon on b3");

    /* Replaying a game's move text: ICCS and Chinese, move numbers skipped. */
    /* 马二进三 in UTF-8 */
    const char *text = "1. h2e2 h9g7 2. \xe9\xa9\xac\xe4\xba\x8c\xe8\xbf\x9b\xe4\xb8\x89 xx";
    CHECK(set(&pos, START) == XQ_OK, "the start position");
    CHECK(xq_play_text(&pos, text, strlen(text), undos, 16, &stopped) == 3
              && strcmp(text + stopped, "xx") == 0,
          "xq_play_text plays three moves and stops at the token it cannot read");
    /* The end of that replay in one call: legal moves, halfmove clock (no loops under 4 plies) and FEN. */
    char end_fen[XQ_FEN_MAX];
    int end[4];
    int end_len = xq_text_ending(&pos, undos, 3, 3, 0, NULL, end_fen, sizeof end_fen, end);
    CHECK(end_len > 0 && (size_t)end_len == strlen(end_fen) && end[0] == xq_count_legal(&pos) && end[1] == 3
              && end[2] == 0 && end[3] == 0
              && strcmp(end_fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2") == 0,
          "xq_text_ending: Black to move after three plies");

    /* Where games begin in PGN text, and whether bytes are plain UTF-8. */
    const char *pgn = "[Event \"a\"]\n\n1. h2e2 *\n\n[Event \"b\"]\n\n1. h2e2 *\n";
    size_t starts[4];
    int in_comment = 0;
    long found = xq_pgn_game_starts(pgn, strlen(pgn), XQ_SCAN_UTF8, &in_comment, starts, 4);
    CHECK(found == 1 && strncmp(pgn + starts[0], "[Event \"b\"]", 11) == 0,
          "the second game starts at its tag");
    CHECK(xq_utf8_plain(text, strlen(text)) == 1 && xq_utf8_plain("\xff", 1) == 0,
          "xq_utf8_plain");
    CHECK(xq_count_lines(pgn, strlen(pgn)) == 7 && xq_count_lines("", 0) == 0 && xq_count_lines(NULL, 1) == XQ_E_ARG,
          "xq_count_lines");
    /* The first game has the common form: its tag lines end at offset 11, it ends at the second game's start
       and has 4 lines. */
    long plain[3];
    CHECK(xq_pgn_plain_games(pgn, strlen(pgn), XQ_SCAN_UTF8, starts, 1, plain) == 1 && plain[0] == 11 &&
              (size_t)plain[1] == starts[0] && plain[2] == 4,
          "xq_pgn_plain_games");
    /* A table where only the pair A4 40 decodes (in Big5: U+4E00). */
    static unsigned char pairs[1 << 15];
    pairs[(0xA4 - 0x80) * 256 + 0x40] = 1;
    CHECK(xq_double_byte_plain("a\xa4\x40" "b", 4, pairs) == 1 && xq_double_byte_plain("a\xa4\x41", 3, pairs) == 0 &&
              xq_double_byte_plain("\xa4", 1, pairs) == 0,
          "xq_double_byte_plain");

    if (failures) return 1;
    printf("xqtour: every example gave the expected answer\n");
    return 0;
}
