/* xq_replay.h - public C API: replaying a game's move text (included by xq.h). */
#ifndef XQ_REPLAY_H
#define XQ_REPLAY_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Plays the whitespace-separated move tokens of UTF-8 `text` (ICCS, or
   four-character Chinese notation) from *pos, skipping move numbers, and
   writes the undo record of ply i to undos[i] (at most `cap` plies).  Stops
   at the first token it does not play (anything else, or an illegal or
   ambiguous move): returns the plies played and sets *stop to that token's
   byte offset (len at the end of the text).  XQ_E_ARG for bad arguments.
   See replay.c for the exact forms read. */
int xq_play_text(xq_pos *pos, const char *text, size_t len, xq_undo *undos, int cap, size_t *stop);

/* What judging the end of a game just played on *pos (its n undo records, as xq_play_text leaves them) asks
   of the core, in one call: out[0] the number of legal moves of *pos, out[1] its halfmove clock, and, when it
   has legal moves and n >= 4, out[2] what xq_repetition_loops(pos, undos, n, count, flags, loops) returns
   and out[3] loops[n].count (0 when out[2] is an error; else 0 and 0; loops must hold n + 1 records); the FEN of *pos is written to
   fen (cap bytes; XQ_FEN_MAX always suffices).  Returns the FEN's length, or XQ_E_ARG. */
int xq_text_ending(const xq_pos *pos, const xq_undo *undos, int n, int count, int flags, xq_rep_info *loops,
                   char *fen, size_t cap, int *out);

#ifdef __cplusplus
}
#endif
#endif /* XQ_REPLAY_H */
