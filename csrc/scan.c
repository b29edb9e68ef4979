/*
 * scan.c - where games begin in PGN text (declared in xq_scan.h).
 *
 * long xq_pgn_game_starts(const char *data, size_t len, int encoding, int *in_comment,
 *                         size_t *starts, size_t cap);
 * int xq_utf8_plain(const char *data, size_t len);
 *
 * The byte form of xiangqi.pgn.game_starts, for the validation chunker, which
 * cuts big files into pieces where a game surely begins.  It walks the text
 * a character at a time (in a double-byte encoding a byte >= 0x81 and the
 * byte after it are one character, so a second byte that happens to be
 * '{', '}' or ']' is never read as one) and tracks what the Python scan
 * tracks:
 *   - '{' opens a comment, '}' closes it (no nesting);
 *   - outside a comment ';' comments out the rest of its line;
 *   - outside a comment, a "\n" followed by blank lines (only ' ', '\t',
 *     '\r') and then a line starting with optional blanks and '[' is a
 *     candidate: the tag line there begins a game when the line before the
 *     blank lines is not empty (after leading white space) and does not start
 *     with '[' or '%'.  A candidate tag line is not searched for comment
 *     marks when it is a tag (its value may hold braces).
 * The Python scan asks its tag pattern whether the candidate line is a tag;
 * here only the plain form  [Name "value"]  (optional blanks around it) is
 * taken as one, which that pattern surely accepts.  Another tag-like line is
 * not reported; when it holds '{', '}' or ';' (whose meaning depends on the
 * pattern) the scan gives up: XQ_SCAN_UNDECIDED.  A line before the blank
 * lines that starts with a non-ASCII character is not taken as move text
 * (the Python scan strips Unicode white space there).  Leaving a start out
 * is always safe: the chunker's piece is only longer.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "xq.h"

/* White space as Python's str.lstrip strips it, ASCII part. */
static inline int is_py_space(unsigned char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F);
}

static inline int is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\r'; }

static inline int is_name_start(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static inline int is_name_char(unsigned char c) {
    return is_name_start(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-';
}

/* The length of the character starting with byte c. */
static inline size_t char_len(unsigned char c, int double_byte, size_t left) {
    return double_byte && c >= 0x81 && c != 0xFF && left >= 2 ? 2 : 1;
}

/* Past the ASCII bytes from i, eight at a time (stops at most eight bytes before the first byte >= 0x80). */
static inline size_t skip_ascii8(const unsigned char *s, size_t i, size_t len) {
    while (i + 8 <= len) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ULL) break;
        i += 8;
    }
    return i;
}

/* How far ahead xq_pgn_game_starts looks for a comment mark at a time. */
#define MARK_WINDOW ((size_t)1 << 12)

/* The offset of the first byte c in s[i..end), or end. */
static inline size_t next_byte(const unsigned char *s, size_t i, size_t end, unsigned char c) {
    const unsigned char *p = i < end ? memchr(s + i, c, end - i) : NULL;
    return p ? (size_t)(p - s) : end;
}

/* Reads the tag-like line s[0..n) (no "\n"), which starts with optional blanks and '['.
   Returns 1 for a plain tag, 0 for another line without comment marks, -1 for another line with some. */
static int plain_tag(const unsigned char *s, size_t n, int double_byte) {
    size_t i = 0, last = n, before = n, open_quote = n;
    int marks = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t bracket = i;
    /* One pass: the positions of the last two characters that are not blanks, the first '"', comment marks. */
    for (size_t k = i; k < n;) {
        unsigned char c = s[k];
        size_t w = char_len(c, double_byte, n - k);
        if (w == 1) {
            if (c == '{' || c == '}' || c == ';') marks = 1;
            if (c == '"' && open_quote == n) open_quote = k;
        }
        if (!(w == 1 && is_blank(c))) {
            before = last;
            last = k;
        }
        k += w;
    }
    int plain = 0;
    if (bracket < n && s[bracket] == '[' && bracket + 1 < n && is_name_start(s[bracket + 1])) {
        size_t k = bracket + 2;
        while (k < n && is_name_char(s[k])) k++;
        size_t gap = k;
        while (k < n && (s[k] == ' ' || s[k] == '\t')) k++;
        plain = k > gap && k == open_quote && last < n && before < n && s[last] == ']' && s[before] == '"' &&
                before == last - 1 && before > open_quote;
    }
    if (plain) return 1;
    return marks ? -1 : 0;
}

long xq_pgn_game_starts(const char *data, size_t len, int encoding, int *in_comment, size_t *starts, size_t cap) {
    if ((!data && len) || !in_comment || (!starts && cap) ||
        (encoding != XQ_SCAN_UTF8 && encoding != XQ_SCAN_DOUBLE_BYTE))
        return XQ_E_ARG;
    const unsigned char *s = (const unsigned char *)data;
    int double_byte = encoding == XQ_SCAN_DOUBLE_BYTE;
    int comment = *in_comment != 0;
    size_t found = 0, line_start = 0, i = 0;
    /* What each byte is to the scan: 0 nothing (skipped in the inner loop), 1 a mark to look at, 2 the
       first byte of a two-byte character. */
    unsigned char kind[256] = {0};
    kind['{'] = kind['}'] = kind[';'] = kind['\n'] = 1;
    if (double_byte)
        for (int b = 0x81; b < 0xFF; b++) kind[b] = 2;
    /* In UTF-8 the next of each comment mark is found by memchr and kept until the scan passes it (most texts
       have none): the next mark is then the first of these and the next "\n" before them. A search looks at
       most MARK_WINDOW bytes ahead (none of that mark before its result), so that a scan that stops early
       has not searched the rest of the text. */
    size_t next_open = 0, next_close = 0, next_semi = 0;
    while (i < len) {
        if (!double_byte) {
            size_t window = len - i > MARK_WINDOW ? i + MARK_WINDOW : len;
            if (next_open <= i) next_open = next_byte(s, i, window, '{');
            if (next_close <= i) next_close = next_byte(s, i, window, '}');
            if (next_semi <= i) next_semi = next_byte(s, i, window, ';');
            size_t mark = next_open < next_close ? next_open : next_close;
            if (next_semi < mark) mark = next_semi;
            i = next_byte(s, i, mark, '\n');
            if (i >= len) goto done;
        } else {
            unsigned char k;
            while ((k = kind[s[i]]) != 1) {
                i += k ? 2 : 1;
                if (i >= len) goto done;
            }
        }
        unsigned char c = s[i];
        if (c == '{') {
            comment = 1;
        } else if (c == '}') {
            comment = 0;
        } else if (c == ';' && !comment) {
            const unsigned char *nl = memchr(s + i, '\n', len - i);
            if (!nl) break;
            i = (size_t)(nl - s);  /* the "\n" is read next: blank lines may follow it */
            continue;
        } else if (c == '\n') {
            size_t prev = line_start;
            line_start = i + 1;
            if (!comment) {
                /* Blank lines after this one, then a line starting with blanks and '['? */
                size_t j = i + 1, tag = 0;
                int blank_lines = 0;
                for (;;) {
                    size_t k = j;
                    while (k < len && is_blank(s[k])) k++;
                    if (k < len && s[k] == '\n') {
                        j = k + 1;
                        blank_lines = 1;
                    } else {
                        break;
                    }
                }
                if (blank_lines) {
                    size_t k = j;
                    while (k < len && (s[k] == ' ' || s[k] == '\t')) k++;
                    tag = k < len && s[k] == '[';
                    if (!tag) {
                        /* The blank lines are read once: from a newline inside them no tag line would follow
                           either (looking again from each was quadratic in the length of the run). */
                        line_start = j;
                        i = j;
                        continue;
                    }
                }
                if (tag) {
                    const unsigned char *nl = memchr(s + j, '\n', len - j);
                    size_t eol = nl ? (size_t)(nl - s) : len;
                    int kind = plain_tag(s + j, eol - j, double_byte);
                    if (kind < 0) {
                        *in_comment = comment;
                        return XQ_SCAN_UNDECIDED;
                    }
                    if (kind == 1) {
                        size_t p = prev;
                        while (p < i && is_py_space(s[p])) p++;
                        if (p < i && s[p] < 0x80 && s[p] != '[' && s[p] != '%') {
                            if (found == cap) {
                                *in_comment = comment;
                                return XQ_SCAN_UNDECIDED;
                            }
                            starts[found++] = j;
                        }
                        line_start = j;
                        i = eol;   /* a tag's value is not searched for comment marks */
                        continue;
                    }
                    line_start = j;
                    i = j;
                    continue;
                }
            }
        }
        i++;
    }
done:
    *in_comment = comment;
    return (long)found;
}

/* How many "\n" bytes data[0..len) holds (xq_scan.h). */
long xq_count_lines(const char *data, size_t len) {
    if (!data && len) return XQ_E_ARG;
    if (len > (size_t)LONG_MAX) return XQ_E_ARG;
    const unsigned char *s = (const unsigned char *)data;
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, newlines = 0x0A0A0A0A0A0A0A0AULL;
    long n = 0;
    size_t i = 0;
    /* Eight bytes at a time (bytes.count takes one at a time): a byte of x is 0 where a "\n" stands, and its
       high bit in ~t is set just there ((b & 0x7F) + 0x7F carries into no other byte). */
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t x = w ^ newlines;
        uint64_t t = ((x & low7) + low7) | x;
        n += __builtin_popcountll(~t & ~low7);
    }
    for (; i < len; i++) n += s[i] == '\n';
    return n;
}

/* Strict UTF-8 as Python's decoder takes it (shortest forms only, no surrogates U+D800-DFFF, nothing above
   U+10FFFF), without U+FEFF (EF BB BF), which the readers drop wherever it stands. */
int xq_utf8_plain(const char *data, size_t len) {
    if (!data && len) return XQ_E_ARG;
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        i = skip_ascii8(s, i, len);   /* most of a PGN file, even a Chinese one */
        if (i >= len) break;
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        /* Most characters of a Chinese record: three bytes led by E1-EC or EE (no range of its own for the
           second byte, never U+FEFF), read straight on, one after the other. */
        while (c >= 0xE1 && c <= 0xEE && c != 0xED && len - i >= 3 && (s[i + 1] & 0xC0) == 0x80 &&
               (s[i + 2] & 0xC0) == 0x80) {
            i += 3;
            if (i >= len) return 1;
            c = s[i];
        }
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned char lo = 0x80, hi = 0xBF;  /* the range of the second byte */
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else {
            return 0;
        }
        if (len - i < n || s[i + 1] < lo || s[i + 1] > hi) return 0;
        for (size_t k = 2; k < n; k++)
            if ((s[i + k] & 0xC0) != 0x80) return 0;
        if (c == 0xEF && s[i + 1] == 0xBB && s[i + 2] == 0xBF) return 0;
        i += n;
    }
    return 1;
}

/* ASCII white space as Python's str.isspace takes it (\s of a str pattern), without "\n". */
static inline int is_py_space_not_nl(unsigned char c) { return c != '\n' && is_py_space(c); }

/* Whether the line of move text at g[q] (after the first) may stand in a game of the plain form: after white
   space, not '[', '%', a non-ASCII character, nor "1" white space "." (or a non-ASCII character after "1"). */
static inline int plain_line_start(const unsigned char *g, size_t q, size_t blen) {
    while (q < blen && is_py_space_not_nl(g[q])) q++;
    if (q >= blen) return 1;
    unsigned char c = g[q];
    if (c >= 0x80 || c == '[' || c == '%') return 0;
    if (c == '1') {
        size_t r = q + 1;
        while (r < blen && is_py_space(g[r])) r++;
        if (r < blen && (g[r] >= 0x80 || g[r] == '.')) return 0;
    }
    return 1;
}

/* Whether the game g[0..n) (g[n-1] is the "\n" before the next game start) is, for sure, one game of the
   common form as xiangqi._pgn_split's line loop reads it: sets *head to the offset of its first "\n\n" and
   *lines to its number of lines.
   Where a non-ASCII character stands at a place that Unicode white space would change, says no
   (the reader then takes its usual path, which is always right). */
static int plain_game(const unsigned char *g, size_t n, int double_byte, size_t *head, size_t *lines) {
    if (n < 2 || n > ((size_t)1 << 18) || g[0] != '[' || memchr(g, '\r', n)) return 0;
    size_t blen = n - 1;   /* the body: without the last "\n" */
    /* The tag lines: [Name "value"] each, up to the first empty line. */
    size_t i = 0, nl = 1;   /* the last "\n" */
    for (;;) {
        if (i >= blen || g[i] != '[') return 0;
        size_t k = i + 1;
        while (k < blen && is_name_start(g[k])) k++;
        if (k == i + 1 || k + 1 >= blen || g[k] != ' ' || g[k + 1] != '"') return 0;
        size_t open = k + 1, last = blen, before = blen;
        if (double_byte) {
            for (k = open + 1; k < blen && g[k] != '\n';) {
                before = last;
                last = k;
                k += char_len(g[k], double_byte, blen - k);
            }
        } else {
            /* In UTF-8 every byte of the line is its own character to these checks (a byte of a longer
               character is never '"' or ']'): the last two are the bytes before the line's end. */
            const unsigned char *end = memchr(g + open + 1, '\n', blen - open - 1);
            k = end ? (size_t)(end - g) : blen;
            if (k >= open + 2) last = k - 1;
            if (k >= open + 3) before = k - 2;
        }
        /* The line ends in '"' ']' (two characters after the opening quote). */
        if (last == blen || before == blen || before <= open || g[last] != ']' || g[before] != '"' ||
            before != last - 1)
            return 0;
        if (k >= blen) return 0;            /* no blank line after the tags */
        nl++;
        if (g[k + 1] == '\n') {
            *head = k;
            i = k + 1;
            break;
        }
        i = k + 1;
    }
    /* The blank lines: [ \t\r\v\f\n]* up to the last "\n" of the run. */
    size_t start = i + 1;
    for (size_t k = i; k < blen && (g[k] == '\n' || g[k] == ' ' || g[k] == '\t' || g[k] == 0x0B || g[k] == 0x0C);
         k++)
        if (g[k] == '\n') {
            start = k + 1;
            nl++;
        }
    if (start >= blen) return 0;            /* no move text */
    unsigned char c = g[start];
    if (c >= 0x80 || c == '[' || c == '%' || is_py_space(c)) return 0;
    /* The move text: no '{' or ';'; no line after its first starting (after white space) with '[', '%' or
       "1" white space ".". */
    if (!double_byte) {
        /* Every byte a character to these checks: the marks and line ends are found by memchr. */
        if (memchr(g + start, '{', blen - start) || memchr(g + start, ';', blen - start)) return 0;
        for (const unsigned char *p = memchr(g + start, '\n', blen - start); p;
             p = memchr(p + 1, '\n', blen - (size_t)(p + 1 - g))) {
            nl++;
            if (!plain_line_start(g, (size_t)(p - g) + 1, blen)) return 0;
        }
        *lines = nl;
        return 1;
    }
    for (size_t k = start; k < blen;) {
        c = g[k];
        if (c == '{' || c == ';') return 0;
        if (c != '\n') {
            k += char_len(c, double_byte, blen - k);
            continue;
        }
        nl++;
        if (!plain_line_start(g, k + 1, blen)) return 0;
        k++;
    }
    *lines = nl;
    return 1;
}

long xq_pgn_plain_games(const char *data, size_t len, int encoding, const size_t *starts, size_t n, long *info) {
    if ((!data && len) || (!starts && n) || (!info && n) ||
        (encoding != XQ_SCAN_UTF8 && encoding != XQ_SCAN_DOUBLE_BYTE))
        return XQ_E_ARG;
    const unsigned char *s = (const unsigned char *)data;
    size_t from = 0;
    for (size_t g = 0; g < n; g++) {
        size_t to = starts[g];
        if (to <= from || to > len || s[to - 1] != '\n') return XQ_E_ARG;
        size_t head = 0, lines = 0;
        int plain = plain_game(s + from, to - from, encoding == XQ_SCAN_DOUBLE_BYTE, &head, &lines);
        info[3 * g] = plain ? (long)head : -1;
        info[3 * g + 1] = (long)to;
        info[3 * g + 2] = (long)lines;
        from = to;
    }
    return (long)n;
}

int xq_double_byte_plain(const char *data, size_t len, const unsigned char *pairs) {
    if ((!data && len) || !pairs) return XQ_E_ARG;
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        i = skip_ascii8(s, i, len);
        if (i >= len) break;
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c == 0x80 || c == 0xFF || i + 1 >= len || !pairs[(size_t)(c - 0x80) * 256 + s[i + 1]]) return 0;
        i += 2;
    }
    return 1;
}
