/* xq_scan.h - public C API: where games begin in PGN text (included by xq.h). */
#ifndef XQ_SCAN_H
#define XQ_SCAN_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The text is one of these encodings: UTF-8 (and ASCII), or a double-byte
   one (GBK, GB18030, Big5), where a byte >= 0x81 starts a two-byte
   character whose second byte may be any of { } [ ] " (GB18030's
   four-byte characters read as two such pairs). */
#define XQ_SCAN_UTF8 0
#define XQ_SCAN_DOUBLE_BYTE 1
/* Returned when the scan cannot decide (see xq_pgn_game_starts). */
#define XQ_SCAN_UNDECIDED (-7)

/* The byte offsets in data[0..len) (whole lines of PGN text that decode
   without error in `encoding`, an XQ_SCAN_* value; lines end in "\n") of
   tag lines where a PGN reader surely begins a new game: a plain tag line
   ([Name "value"]) after blank lines that follow a line of move text,
   outside any { } comment.  *in_comment says whether a comment is open
   where data begins, and is set to whether one is open at its end.  This
   is the C form of xiangqi.pgn.game_starts on the decoded text, which is
   its specification; it finds a subset of that function's offsets (the
   plain tags; a tag line of another form is left out when that cannot
   change what follows).  Writes at most `cap` offsets to starts and returns
   how many it wrote; XQ_SCAN_UNDECIDED for text it leaves to the caller
   (a tag-like line that is not plain and holds comment marks, or more than
   `cap` starts), XQ_E_ARG for bad arguments. */
long xq_pgn_game_starts(const char *data, size_t len, int encoding, int *in_comment, size_t *starts, size_t cap);

/* 1 when data[0..len) is strict UTF-8 (what Python's decoder accepts with
   errors="strict": shortest forms, no surrogates, nothing above U+10FFFF)
   and holds no U+FEFF (a byte order mark, which the readers drop wherever
   it stands), else 0; XQ_E_ARG for bad arguments.  Lets a chunker know a
   block decodes as it is (for xq_pgn_game_starts) without decoding it. */
int xq_utf8_plain(const char *data, size_t len);

/* How many "\n" bytes data[0..len) holds (a block's line count; every encoding read splits lines there);
   XQ_E_ARG for bad arguments. */
long xq_count_lines(const char *data, size_t len);

/* 1 when data[0..len) is, read as a double-byte encoding (XQ_SCAN_DOUBLE_BYTE), ASCII and two-byte
   characters (a byte 0x81-0xFE and the byte after it) that pairs[(lead - 0x80) * 256 + trail] marks as
   decoding, else 0 (also at 0x80, 0xFF or a lead byte at the end); XQ_E_ARG for bad arguments.  With a
   table made by the codec itself (each pair decoded alone), the text decodes strictly without decoding it. */
int xq_double_byte_plain(const char *data, size_t len, const unsigned char *pairs);

/* For the games data[0..starts[0]), data[starts[0]..starts[1]), ... data[starts[n-2]..starts[n-1]) (the
   offsets xq_pgn_game_starts found, ascending; each game ends in "\n"): info[3g] the offset in game g of
   its first "\n\n" (where its tag lines end) when the game surely is one game of the common form as
   xiangqi._pgn_split's line loop reads it (plain tag lines, blank lines, move text without comments, tag or
   '%' lines or a second move 1, no "\r", at most 2^18 bytes), else -1; info[3g+1] its end (starts[g]);
   info[3g+2] how many lines it has (when plain, else 0).  Returns n, or XQ_E_ARG for bad arguments. */
long xq_pgn_plain_games(const char *data, size_t len, int encoding, const size_t *starts, size_t n, long *info);

#ifdef __cplusplus
}
#endif
#endif /* XQ_SCAN_H */
