/* cffi declarations for xq_rules.h (parsed after xq_cdef.h). */
#define XQ_MAX_CHASES ...
#define XQ_FACTS_CXA ...
#define XQ_FACTS_KILL ...
#define XQ_FACTS_CHECK_ONLY ...
#define XQ_CHASE_UNPROTECTED ...
#define XQ_CHASE_FALSE_ROOT ...
#define XQ_CHASE_STRONGER ...
#define XQ_CHASE_SHORT_ROOT ...
#define XQ_FACT_ILLEGAL ...
#define XQ_FACT_TRUNCATED ...
#define XQ_FACT_KILL_BUDGET ...

typedef struct xq_chase {
    uint8_t attacker;
    uint8_t victim;
    uint8_t attacker_id;
    uint8_t victim_id;
    uint8_t attacker_piece;
    uint8_t victim_piece;
    uint8_t reason;
    uint8_t protectors;
} xq_chase;

typedef struct xq_facts {
    xq_move move;
    uint8_t mover;
    uint8_t captured;
    uint8_t check;
    uint8_t kill;
    uint8_t evasion;
    uint8_t flags;
    uint8_t n_chases;
    uint8_t n_more;
    xq_chase chases[24];
} xq_facts;

int xq_move_facts(const xq_pos *pos, xq_move move, int flags, xq_facts *out);
int xq_history_facts(const xq_pos *pos, const xq_undo *undos, int n, int start, int end, int flags,
                     xq_facts *out, int cap);
int xq_repetition_counts(const xq_pos *pos, const xq_undo *undos, int n, uint8_t *out);
int xq_repetition_plies(const xq_pos *pos, const xq_undo *undos, int n, int at, int *out, int cap);
int xq_history_checks(const xq_pos *pos, const xq_undo *undos, int n, int start, int end, int counts[2]);
