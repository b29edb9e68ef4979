/* cffi declarations for xq_search.h (parsed after xq_cdef.h). */
#define XQ_SEARCH_MAX_PLY ...
#define XQ_SEARCH_HISTORY_MAX ...
#define XQ_MATE_SCORE ...
#define XQ_MATE_BOUND ...
#define XQ_SEARCH_STOPPED ...
#define XQ_SEARCH_NATURAL_LIMIT ...

typedef struct xq_tt_entry { ...; } xq_tt_entry;

typedef struct xq_search {
    volatile int stop;
    uint64_t node_limit;
    int64_t time_limit_ms;
    int facts_flags;
    int verdict_flags;
    int natural_limit;
    int depth;
    int seldepth;
    int score;
    xq_move best;
    int pv_len;
    xq_move pv[...];
    uint64_t nodes;
    ...;
} xq_search;

void xq_tt_clear(xq_tt_entry *tt, uint64_t n);
int xq_search_init(xq_search *s, xq_tt_entry *tt, uint64_t tt_size);
void xq_search_clear(xq_search *s);
int xq_search_begin(xq_search *s, const xq_pos *pos, const xq_undo *undos, int n_undos,
                    const xq_move *root_moves, int n_root);
int xq_search_depth(xq_search *s, int depth);
int64_t xq_search_elapsed_ms(const xq_search *s);
int xq_evaluate(const xq_pos *pos);
