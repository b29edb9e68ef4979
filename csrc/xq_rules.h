/* xq_rules.h - public C API: rules (included by xq.h). */
#ifndef XQ_RULES_H
#define XQ_RULES_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif /* XQ_RULES_H */
