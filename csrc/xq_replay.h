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

#ifdef __cplusplus
}
#endif
#endif /* XQ_REPLAY_H */
