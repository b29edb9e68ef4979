/*
 * xq_internal.h - bitboard helpers, attack tables and the inline attack
 * queries shared by the core's .c files.  Not part of the public API.
 */
#ifndef XQ_INTERNAL_H
#define XQ_INTERNAL_H

#include "xq.h"
#include <string.h>

#define NO_SQ 255

/* Tables a king square indexes have XQ_SQ_NONE + 1 entries: the last, for
   a side without a king, is empty (no lines, no horse or pawn sources, no
   bit), so attack and check queries on it find nothing without a branch. */
#define SQ_TABLE (XQ_SQ_NONE + 1)

static inline xq_bb bb_sq(int s) { return (xq_bb)1 << s; }
static inline int bb_test(xq_bb b, int s) { return (int)((b >> s) & 1); }
static inline uint64_t bb_lo(xq_bb b) { return (uint64_t)b; }
static inline uint64_t bb_hi(xq_bb b) { return (uint64_t)(b >> 64); }

static inline int bb_popcount(xq_bb b) {
    return __builtin_popcountll(bb_lo(b)) + __builtin_popcountll(bb_hi(b));
}

static inline int bb_lsb(xq_bb b) {
    uint64_t lo = bb_lo(b);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(bb_hi(b));
}

static inline int bb_pop_lsb(xq_bb *b) {
    int s = bb_lsb(*b);
    *b &= *b - 1;
    return s;
}

static inline int bb_more_than_one(xq_bb b) { return (b & (b - 1)) != 0; }

static inline void bb_out(xq_bb b, uint64_t out[2]) {
    out[0] = bb_lo(b);
    out[1] = bb_hi(b);
}

/* Square geometry. */
extern uint8_t RANK_OF[90];
extern uint8_t FILE_OF[90];
extern xq_bb SQ_BB[SQ_TABLE];           /* [XQ_SQ_NONE] = 0 */
extern xq_bb ROT_BB[90];              /* file-major bit of a square */

/* Sliders: rank lookups by 9-bit rank occupancy, file lookups by 10-bit
   file occupancy (from the file-major occ_rot), both as small masks that
   are shifted into place. */
extern uint16_t ROOK_RANK[9][512];
extern uint16_t CANNON_RANK[9][512];
extern uint16_t ROOK_FILE[10][1024];
extern uint16_t CANNON_FILE[10][1024];
extern uint16_t CANNON_CTL_RANK[9][512];   /* cannon control: see cannon_ctl() */
extern uint16_t CANNON_CTL_FILE[10][1024];
extern xq_bb FILE_SPREAD[1024];       /* 10-bit file mask -> bits on file a */

extern xq_bb LINE_EMPTY[SQ_TABLE];    /* rook rays on an empty board */
extern xq_bb FILE_OF_BB[SQ_TABLE];
extern xq_bb HALF_BB[2];              /* each color's own half (ranks 0-4 Red, 5-9 Black) */          /* the whole file of a square (flying general is a file rule) */
extern xq_bb BETWEEN[90][90];         /* squares strictly between two squares on a line */

/* Leapers, by color where the region depends on it. */
extern xq_bb KING_ATT[2][90];
extern xq_bb ADVISOR_ATT[2][90];
extern xq_bb PAWN_ATT[2][90];
extern xq_bb PAWN_TO[2][SQ_TABLE];         /* squares a pawn of that color attacks `s` from */
extern uint8_t ELEPHANT_EYE[90][4];
extern uint8_t ELEPHANT_TGT[2][90][4];
extern uint8_t HORSE_LEG[90][4];
extern xq_bb HORSE_TGT[90][4];        /* targets unlocked by each leg */
extern uint8_t HORSE_TO_LEG[90][4];   /* diagonal neighbour of s: leg of horses that attack s */
extern xq_bb HORSE_TO_SRC[90][4];     /* horse squares using that leg to attack s */
extern uint8_t HORSE_LEG_BETWEEN[90][90]; /* leg square of a horse on [from] attacking [to] */
extern xq_bb HORSE_REV_EMPTY[SQ_TABLE];     /* squares a horse attacks s from on an empty board */

/* Zobrist keys. */
extern uint64_t ZOBRIST[16][90];
extern uint64_t ZOBRIST_SIDE;

static inline xq_bb pos_occ(const xq_pos *p) { return p->by_color[0] | p->by_color[1]; }

static inline xq_bb pieces_of(const xq_pos *p, int color, int type) {
    return p->by_color[color] & p->by_type[type];
}

static inline xq_bb rook_att(int s, xq_bb occ, xq_bb rot) {
    int r = RANK_OF[s], f = FILE_OF[s];
    unsigned ro = (unsigned)(occ >> (r * 9)) & 511u;
    unsigned fo = (unsigned)(rot >> (f * 10)) & 1023u;
    return ((xq_bb)ROOK_RANK[f][ro] << (r * 9)) | (FILE_SPREAD[ROOK_FILE[r][fo]] << f);
}

static inline xq_bb cannon_cap(int s, xq_bb occ, xq_bb rot) {
    int r = RANK_OF[s], f = FILE_OF[s];
    unsigned ro = (unsigned)(occ >> (r * 9)) & 511u;
    unsigned fo = (unsigned)(rot >> (f * 10)) & 1023u;
    return ((xq_bb)CANNON_RANK[f][ro] << (r * 9)) | (FILE_SPREAD[CANNON_FILE[r][fo]] << f);
}

/* Squares a cannon on s controls: beyond exactly one screen, up to and
   including the next piece (it could capture a piece standing there). */
static inline xq_bb cannon_ctl(int s, xq_bb occ, xq_bb rot) {
    int r = RANK_OF[s], f = FILE_OF[s];
    unsigned ro = (unsigned)(occ >> (r * 9)) & 511u;
    unsigned fo = (unsigned)(rot >> (f * 10)) & 1023u;
    return ((xq_bb)CANNON_CTL_RANK[f][ro] << (r * 9)) | (FILE_SPREAD[CANNON_CTL_FILE[r][fo]] << f);
}

static inline xq_bb horse_att(int s, xq_bb occ) {
    xq_bb a = 0;
    for (int i = 0; i < 4; i++) {
        int leg = HORSE_LEG[s][i];
        if (leg != NO_SQ && !bb_test(occ, leg)) a |= HORSE_TGT[s][i];
    }
    return a;
}

/* Horses (from `horses`) that attack s given occupancy occ. */
static inline xq_bb horse_attackers(int s, xq_bb horses, xq_bb occ) {
    xq_bb a = 0;
    if (!(HORSE_REV_EMPTY[s] & horses)) return 0;
    for (int i = 0; i < 4; i++) {
        int leg = HORSE_TO_LEG[s][i];
        if (leg != NO_SQ && !bb_test(occ, leg)) a |= HORSE_TO_SRC[s][i];
    }
    return a & horses;
}

static inline xq_bb elephant_att(int color, int s, xq_bb occ) {
    xq_bb a = 0;
    for (int i = 0; i < 4; i++) {
        int t = ELEPHANT_TGT[color][s][i];
        if (t != NO_SQ && !bb_test(occ, ELEPHANT_EYE[s][i])) a |= SQ_BB[t];
    }
    return a;
}

/* Is square s attacked by `their` pieces (already excluding any piece
   captured on the hypothetical move) under occupancy occ/rot?  `them` is
   the attacking color.  The king term covers the flying general (on a file
   only: kings on one rank do not "face" each other). */
static inline int attacked_by(const xq_pos *p, int s, int them, xq_bb their, xq_bb occ, xq_bb rot) {
    if (PAWN_TO[them][s] & their & p->by_type[XQ_PAWN]) return 1;
    xq_bb hs = their & p->by_type[XQ_HORSE];
    if (hs && horse_attackers(s, hs, occ)) return 1;
    xq_bb rk = their & (p->by_type[XQ_ROOK] | (p->by_type[XQ_KING] & FILE_OF_BB[s]));
    if ((LINE_EMPTY[s] & rk) && (rook_att(s, occ, rot) & rk)) return 1;
    xq_bb cn = their & p->by_type[XQ_CANNON];
    if ((LINE_EMPTY[s] & cn) && (cannon_cap(s, occ, rot) & cn)) return 1;
    if (bb_test(HALF_BB[them], s)) {
        /* Only a king standing in the enemy half (outside its palace: an
           odd set-up position) can meet advisors, elephants or the king. */
        xq_bb steppers = their & (p->by_type[XQ_ADVISOR] | p->by_type[XQ_ELEPHANT] | p->by_type[XQ_KING]);
        while (steppers) {
            int f = bb_pop_lsb(&steppers);
            int t = p->board[f] & 7;
            xq_bb a = t == XQ_ADVISOR ? ADVISOR_ATT[them][f] : t == XQ_KING ? KING_ATT[them][f] : elephant_att(them, f, occ);
            if (bb_test(a, s)) return 1;
        }
    }
    return 0;
}

/* All pieces of `color` attacking s (see xq_attackers_to). */
xq_bb attackers_bb(const xq_pos *p, int s, int color, xq_bb occ, xq_bb rot);
/* Squares the piece on s attacks: where it could capture an enemy piece
   standing there (pins ignored; a cannon controls every square beyond its
   screen up to the next piece; a king also hits a facing enemy king). */
xq_bb piece_att(const xq_pos *p, int s, xq_bb occ, xq_bb rot);

/* Fast make/unmake used by perft and the API wrappers (no checks). */
void pos_do_move_fast(xq_pos *p, xq_move m, xq_undo *u);
void pos_undo_move_fast(xq_pos *p, const xq_undo *u);

static inline int move_from(xq_move m) { return m >> 7; }
static inline int move_to(xq_move m) { return m & 127; }
static inline xq_move make_move(int from, int to) { return (xq_move)(from << 7 | to); }

#endif /* XQ_INTERNAL_H */
