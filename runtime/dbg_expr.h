/* dbg_expr.h — the debugger's expression language: what `print`, `display`,
 * `x`, `watch` and breakpoint conditions evaluate.  Registers of any type
 * (of a chosen call frame), special registers, typed memory in any space
 * ([shared.f32 8]), buffer and kernel-parameter names, C arithmetic,
 * comparisons and logic; values carry their PTX type.
 *
 * Ownership: evaluation only reads the session (through the engine's state
 * queries, dbg_engine.h) and keeps nothing; errors come back as text in the
 * caller's buffer, never printed.
 */
#ifndef PTXEMU_DBG_EXPR_H
#define PTXEMU_DBG_EXPR_H

#include "dbg_engine.h"

/* A value and its PTX type (the bits zero-extended to 64). */
typedef struct dbg_val { uint64_t v; ast_type t; } dbg_val;

/* Where an expression is evaluated. */
typedef struct dbg_where {
    vm_warp *w;                  /* the thread's warp; NULL: no thread (numbers, names, global memory) */
    int lane;
    int phys;                    /* registers of this physical frame (0: the innermost) */
    int has_pc;                  /* the lane is at pc (in a hook, before w->pc is written back) */
    uint32_t pc;
    int has_cta;                 /* the lane's CTA is cta (linear), not the focused one */
    uint64_t cta;
} dbg_where;

/* Size of an evaluation's error message buffer. */
#define DBG_EXPR_ERR 256

/* Evaluates the expression at the start of text: 0 with *out and *rest (what
 * follows it, blanks skipped), or -1 with a message in err. */
int dbg_eval(dbg_session *s, const dbg_where *at, const char *text, dbg_val *out, const char **rest, char err[DBG_EXPR_ERR]);

/* A dbg_cond_fn: b's condition per lane of the group. */
int dbg_cond_lanes(dbg_session *s, const dbg_bp *b, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc,
                   uint32_t *lanes, char *err, size_t errlen);

/* "value (0xbits)": decimal first, then hex; floats as value and bits;
 * brief: the value alone. */
void dbg_fmt_val(dbg_val x, int brief, char *buf, size_t len);
/* x as a signed 64-bit integer (floats truncated). */
int64_t dbg_to_int(dbg_val x);
/* Width of type t in bits (pred: 1). */
int dbg_type_bits(ast_type t);
/* Parses a type name (u8..u64, s8..s64, b8..b64, f16, f32, f64, bf16) at
 * *pp, advancing it: 0, or -1. */
int dbg_parse_type(const char **pp, ast_type *t);
/* Parses a space word (global, shared, local, generic) at *pp, advancing
 * it and setting *space (BC_SP_*): the word, or NULL (nothing consumed). */
const char *dbg_space_word(const char **pp, int *space);

#endif
