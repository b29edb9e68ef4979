/* xq_batch.h - public C API: batch (included by xq.h). */
#ifndef XQ_BATCH_H
#define XQ_BATCH_H
#include "xq.h"
#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif /* XQ_BATCH_H */
