/* cffi declarations for xq_rules.h (parsed after xq_cdef.h). */
