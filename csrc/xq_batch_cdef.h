/* cffi declarations for xq_batch.h (parsed after xq_cdef.h). */
