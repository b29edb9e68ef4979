/*
 * attacks.c - attack tables, computed once by xq_init(), read-only after.
 */
#include "xq_internal.h"

uint8_t RANK_OF[90];
uint8_t FILE_OF[90];
xq_bb SQ_BB[SQ_TABLE];
xq_bb ROT_BB[90];
uint16_t ROOK_RANK[9][512];
uint16_t CANNON_RANK[9][512];
uint16_t ROOK_FILE[10][1024];
uint16_t CANNON_FILE[10][1024];
uint16_t CANNON_CTL_RANK[9][512];
uint16_t CANNON_CTL_FILE[10][1024];
xq_bb FILE_SPREAD[1024];
xq_bb LINE_EMPTY[SQ_TABLE];
xq_bb FILE_OF_BB[SQ_TABLE];
xq_bb HALF_BB[2];
xq_bb BETWEEN[90][90];
xq_bb KING_ATT[2][90];
xq_bb ADVISOR_ATT[2][90];
xq_bb PAWN_ATT[2][90];
xq_bb PAWN_TO[2][SQ_TABLE];
uint8_t ELEPHANT_EYE[90][4];
uint8_t ELEPHANT_TGT[2][90][4];
uint8_t HORSE_LEG[90][4];
xq_bb HORSE_TGT[90][4];
uint8_t HORSE_TO_LEG[90][4];
xq_bb HORSE_TO_SRC[90][4];
uint8_t HORSE_LEG_BETWEEN[90][90];
xq_bb HORSE_REV_EMPTY[SQ_TABLE];
uint64_t ZOBRIST[16][90];
uint64_t ZOBRIST_SIDE;

static int on_board(int r, int f) { return r >= 0 && r < 10 && f >= 0 && f < 9; }
static int in_palace(int color, int r, int f) {
    return f >= 3 && f <= 5 && (color == XQ_RED ? r <= 2 : r >= 7);
}
static int in_own_half(int color, int r) { return color == XQ_RED ? r <= 4 : r >= 5; }

enum { SLIDE_ROOK, SLIDE_CANNON_CAPTURE, SLIDE_CANNON_CONTROL };

/* Slider targets along one line of n squares for a piece at index i given
   line occupancy `occ`.  Rook: the squares up to and including the first
   piece.  Cannon capture: the first piece after the first screen.  Cannon
   control: every square after the first screen up to and including the
   next piece (where a piece, if it stood there, could be captured). */
static unsigned slide(int n, int i, unsigned occ, int mode) {
    unsigned out = 0;
    for (int d = -1; d <= 1; d += 2) {
        int screen = 0;
        for (int j = i + d; j >= 0 && j < n; j += d) {
            int busy = (occ >> j) & 1;
            if (mode == SLIDE_ROOK) {
                out |= 1u << j;
                if (busy) break;
            } else if (screen) {
                if (busy || mode == SLIDE_CANNON_CONTROL) out |= 1u << j;
                if (busy) break;
            } else if (busy) {
                screen = 1;
            }
        }
    }
    return out;
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void init_geometry(void) {
    for (int s = 0; s < 90; s++) {
        RANK_OF[s] = (uint8_t)(s / 9);
        FILE_OF[s] = (uint8_t)(s % 9);
        SQ_BB[s] = bb_sq(s);
        ROT_BB[s] = bb_sq(FILE_OF[s] * 10 + RANK_OF[s]);
    }
    for (unsigned m = 0; m < 1024; m++) {
        xq_bb b = 0;
        for (int r = 0; r < 10; r++)
            if (m >> r & 1) b |= bb_sq(r * 9);
        FILE_SPREAD[m] = b;
    }
    for (int i = 0; i < 9; i++)
        for (unsigned o = 0; o < 512; o++) {
            ROOK_RANK[i][o] = (uint16_t)slide(9, i, o, SLIDE_ROOK);
            CANNON_RANK[i][o] = (uint16_t)slide(9, i, o, SLIDE_CANNON_CAPTURE);
            CANNON_CTL_RANK[i][o] = (uint16_t)slide(9, i, o, SLIDE_CANNON_CONTROL);
        }
    for (int i = 0; i < 10; i++)
        for (unsigned o = 0; o < 1024; o++) {
            ROOK_FILE[i][o] = (uint16_t)slide(10, i, o, SLIDE_ROOK);
            CANNON_FILE[i][o] = (uint16_t)slide(10, i, o, SLIDE_CANNON_CAPTURE);
            CANNON_CTL_FILE[i][o] = (uint16_t)slide(10, i, o, SLIDE_CANNON_CONTROL);
        }
    HALF_BB[XQ_RED] = HALF_BB[XQ_BLACK] = 0;
    for (int a = 0; a < 90; a++) HALF_BB[a < 45 ? XQ_RED : XQ_BLACK] |= bb_sq(a);
    for (int a = 0; a < 90; a++) {
        FILE_OF_BB[a] = 0;
        for (int r = 0; r < 10; r++) FILE_OF_BB[a] |= bb_sq(r * 9 + a % 9);
        LINE_EMPTY[a] = 0;
        for (int b = 0; b < 90; b++) {
            BETWEEN[a][b] = 0;
            int ra = a / 9, fa = a % 9, rb = b / 9, fb = b % 9;
            if (a == b || (ra != rb && fa != fb)) continue;
            LINE_EMPTY[a] |= bb_sq(b);
            int dr = (rb > ra) - (rb < ra), df = (fb > fa) - (fb < fa);
            for (int r = ra + dr, f = fa + df; r != rb || f != fb; r += dr, f += df)
                BETWEEN[a][b] |= bb_sq(r * 9 + f);
        }
    }
}

static void init_leapers(void) {
    static const int orth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    memset(HORSE_LEG_BETWEEN, NO_SQ, sizeof HORSE_LEG_BETWEEN);
    for (int s = 0; s < 90; s++) {
        int r = s / 9, f = s % 9;
        for (int c = 0; c < 2; c++) {
            KING_ATT[c][s] = ADVISOR_ATT[c][s] = PAWN_ATT[c][s] = 0;
            for (int i = 0; i < 4; i++) {
                int kr = r + orth[i][0], kf = f + orth[i][1];
                if (on_board(kr, kf) && in_palace(c, kr, kf)) KING_ATT[c][s] |= bb_sq(kr * 9 + kf);
                int ar = r + diag[i][0], af = f + diag[i][1];
                if (on_board(ar, af) && in_palace(c, ar, af)) ADVISOR_ATT[c][s] |= bb_sq(ar * 9 + af);
                int er = r + 2 * diag[i][0], ef = f + 2 * diag[i][1];
                ELEPHANT_TGT[c][s][i] = (uint8_t)((on_board(er, ef) && in_own_half(c, er)) ? er * 9 + ef : NO_SQ);
            }
            int fwd = c == XQ_RED ? 1 : -1;
            if (on_board(r + fwd, f)) PAWN_ATT[c][s] |= bb_sq((r + fwd) * 9 + f);
            if (!in_own_half(c, r)) {
                if (f > 0) PAWN_ATT[c][s] |= bb_sq(s - 1);
                if (f < 8) PAWN_ATT[c][s] |= bb_sq(s + 1);
            }
        }
        for (int i = 0; i < 4; i++) {
            int er = r + diag[i][0], ef = f + diag[i][1];
            ELEPHANT_EYE[s][i] = (uint8_t)(on_board(er, ef) ? er * 9 + ef : NO_SQ);
            /* Horse: leg one step orthogonally, then one diagonal step outwards. */
            int lr = r + orth[i][0], lf = f + orth[i][1];
            HORSE_LEG[s][i] = NO_SQ;
            HORSE_TGT[s][i] = 0;
            if (on_board(lr, lf)) {
                int pr = orth[i][1], pf = orth[i][0]; /* perpendicular */
                for (int k = -1; k <= 1; k += 2) {
                    int tr = lr + orth[i][0] + k * pr, tf = lf + orth[i][1] + k * pf;
                    if (on_board(tr, tf)) {
                        HORSE_TGT[s][i] |= bb_sq(tr * 9 + tf);
                        HORSE_LEG_BETWEEN[s][tr * 9 + tf] = (uint8_t)(lr * 9 + lf);
                    }
                }
                if (HORSE_TGT[s][i]) HORSE_LEG[s][i] = (uint8_t)(lr * 9 + lf);
            }
        }
    }
    for (int s = 0; s < 90; s++) {
        int r = s / 9, f = s % 9;
        HORSE_REV_EMPTY[s] = 0;
        for (int c = 0; c < 2; c++) {
            PAWN_TO[c][s] = 0;
            for (int p = 0; p < 90; p++)
                if (bb_test(PAWN_ATT[c][p], s)) PAWN_TO[c][s] |= bb_sq(p);
        }
        for (int i = 0; i < 4; i++) {
            int dr = r + diag[i][0], df = f + diag[i][1];
            HORSE_TO_LEG[s][i] = NO_SQ;
            HORSE_TO_SRC[s][i] = 0;
            if (!on_board(dr, df)) continue;
            int cand[2][2] = {{dr + diag[i][0], df}, {dr, df + diag[i][1]}};
            for (int k = 0; k < 2; k++)
                if (on_board(cand[k][0], cand[k][1])) HORSE_TO_SRC[s][i] |= bb_sq(cand[k][0] * 9 + cand[k][1]);
            if (HORSE_TO_SRC[s][i]) HORSE_TO_LEG[s][i] = (uint8_t)(dr * 9 + df);
            HORSE_REV_EMPTY[s] |= HORSE_TO_SRC[s][i];
        }
    }
}

static void init_zobrist(void) {
    uint64_t state = 0x58494E4751493930ull; /* fixed seed: keys are stable across runs */
    for (int p = 0; p < 16; p++)
        for (int s = 0; s < 90; s++)
            ZOBRIST[p][s] = splitmix64(&state);
    ZOBRIST_SIDE = splitmix64(&state);
}

static int initialized;

void xq_init(void) {
    if (initialized) return;
    init_geometry();
    init_leapers();
    init_zobrist();
    initialized = 1;
}

const char *xq_version(void) { return XQ_VERSION; }

const char *xq_status_str(int status) {
    switch (status) {
    case XQ_OK: return "ok";
    case XQ_E_FEN_SYNTAX: return "malformed FEN";
    case XQ_E_FEN_POSITION: return "unusable position";
    case XQ_E_MOVE_FORMAT: return "square out of range";
    case XQ_E_ILLEGAL_MOVE: return "illegal move";
    case XQ_E_BUFFER_SMALL: return "buffer too small";
    case XQ_E_ARG: return "bad argument";
    case XQ_E_HASH_MISMATCH: return "hashed perft count differs from a recount";
    default: return status >= 0 ? "ok" : "unknown status";
    }
}
