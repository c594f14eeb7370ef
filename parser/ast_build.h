/* ast_build.h — the builder the PTX parser's actions call (private to the
 * parser: parser/ptx.y, lexer/ptx.l and parser/ast.c).
 *
 * Memory: every node, list and string made here lives in the module's arena
 * (m->arena).  Nothing a grammar symbol carries is ever freed on its own, so
 * bison's error recovery may discard symbols freely without leaking; the
 * whole arena goes at once in ast_module_free.  The few heap blocks the
 * builder itself owns (the register-name scope table) are freed by
 * b_finish.
 */
#ifndef PTXEMU_AST_BUILD_H
#define PTXEMU_AST_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include "ast.h"
#include "diag.h"

/* ---- arena -------------------------------------------------------------- */

ast_arena *arena_new(void);
void arena_free(ast_arena *a);
void *arena_alloc(ast_arena *a, size_t n);          /* zeroed, 16-aligned */
char *arena_strndup(ast_arena *a, const char *s, size_t n);

/* A growable array of pointers carved from the arena (old storage is simply
 * abandoned when it grows: at most twice the final size is ever used). */
typedef struct b_list {
    void **v;
    int n, cap;
    ast_loc loc;                /* where the list begins */
} b_list;

/* Limits. */
#define B_MAX_REG_RANGE   1048576   /* %r<N> */
#define B_MAX_INIT_DEPTH  64        /* nested { } in an initializer */
#define B_MAX_DIMS        4
#define B_MAX_EXPR_DEPTH  256       /* nested ( ) in one statement */
#define B_MAX_BRACE_STACK 256       /* open { } whose locations are kept */

/* A constant-expression value (and an INT token): 64-bit, signed unless a
 * literal had a U suffix or exceeded INT64_MAX (C's usual conversions).
 * lead: written with a leading unary + or - (so `sym - 4` is an offset);
 * paren: a parenthesized expression as a whole; bad: an error was reported
 * (later operators stay quiet). */
typedef struct b_cval {
    int64_t v;
    unsigned char uns, lead, paren, bad;
} b_cval;

typedef struct b_brace {
    ast_loc loc;
    int indent;                  /* column of the first non-blank on its line */
} b_brace;

/* Declaration attributes collected left to right: `.align 4 .v2 .u32`,
 * `.u64 .ptr .global .align 16`. */
typedef struct b_spec {
    int align, vec, ptr, ptr_align;
    ast_type type;
    ast_space ptr_space;
    int bad;                     /* an error was already reported */
} b_spec;

/* One declared name: `x[4] = {...}`, `%r<5>`, `%p`. */
typedef struct b_declarator {
    ast_loc loc;
    const char *name;
    int is_range;
    int64_t count;
    int ndims;
    int64_t dims[B_MAX_DIMS];
    ast_init *init;
} b_declarator;

typedef struct b_dims {
    int n;
    int64_t d[B_MAX_DIMS];
} b_dims;

/* `.space specs name, name...` before the semicolon. */
typedef struct b_decl {
    ast_loc loc;
    int linkage;
    ast_space space;
    b_spec *spec;
    b_list *names;               /* of b_declarator* */
} b_decl;

typedef struct b_perf {
    const char *name;
    ast_loc loc;
    b_list *args;                /* of int64_t* (NULL: no arguments) */
} b_perf;

/* Start conditions the lexer is in; kept here so the builder can reset them. */
typedef struct ptx_builder {
    /* input */
    const char *path;
    const char *src;
    size_t len;
    diag_list *diags;
    int nerrors;                 /* errors added during this parse */
    int stop;                    /* diag cap reached: the lexer returns EOF */
    ast_loc last_err;            /* where the last message pointed */
    void *scanner;               /* the flex scanner (yyscan_t) */

    /* lexer position: of the next byte to scan, and of the last token */
    size_t pos;
    int line, col;
    size_t tok_pos;
    int tok_line, tok_col;
    char last_text[72];          /* the last token's text for messages */
    int last_kind;               /* 0: none yet */
    ast_loc last_end;            /* where the last token ended */
    int lex_uns;                 /* the last integer literal was unsigned */

    /* lexer context */
    int depth;                   /* braces open in a function body */
    int vdepth;                  /* vector braces in operands */
    int pdepth, pdepth_err;      /* parentheses in this statement */
    int insn_indent;             /* indentation of the instruction's line */
    b_brace braces[B_MAX_BRACE_STACK];   /* the open body/scope braces */
    ast_loc brace_suspect;       /* a `{` a less indented `}` skipped */
    int in_init, init_depth, init_overflow;
    int eof_done;
    int sect_str;                /* inside .section .debug_str */
    int sect_depth;
    int sect_pending;            /* last section token was an identifier */
    char *sect_label;
    ast_loc sect_loc;
    char *dbg_buf;               /* bytes of the current debug string */
    size_t dbg_n, dbg_cap;
    int dbg_open;
    const char *dbg_label;       /* label of the open debug string */

    /* the module being built */
    ast_module *m;
    ast_arena *a;
    b_list items, files, dstrs;  /* of ast_item*, ast_file*, ast_debug_str* */
    b_list aliases;              /* of ast_alias* */
    b_list fnoffs;               /* of b_fnoff*: `.loc ... function_name sym+off` */
    int seen_target;

    /* the function being built */
    ast_func *fn;
    ast_stmt *stmts;
    int nstmts, capstmts;
    ast_srcloc src_cur;
    int scope;                   /* nesting of inner { } within the body */

    /* bare register names (`p`, `low`) visible now: hash of name -> live
     * count, plus a stack of (name, scope) to pop at `}` */
    struct { const char *name; int live; } *rh;
    size_t rh_cap, rh_n;
    struct { const char *name; int scope; } *rstack;
    size_t rs_n, rs_cap;
} ptx_builder;

/* ---- diagnostics --------------------------------------------------------- */

void b_error(ptx_builder *b, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* `s` (n bytes) quoted for a message: printable, cut to ~40 chars. */
const char *b_quote(char *buf, size_t bufsz, const char *s, size_t n);

/* ---- lexer helpers -------------------------------------------------------- */

const char *b_str(ptx_builder *b, const char *s, size_t n);
int b_is_mnemonic(const char *word, size_t n);   /* first component checked */
void b_debug_label(ptx_builder *b, const char *name, int line, int col);
void b_debug_byte(ptx_builder *b, int64_t v);
void b_debug_end(ptx_builder *b);

/* ---- parser actions ------------------------------------------------------ */


b_list *b_list_add(ptx_builder *b, b_list *l, void *p, ast_loc at);

/* module directives */
void b_version(ptx_builder *b, ast_loc at, const char *num);
void b_target(ptx_builder *b, ast_loc at, const char *word);
void b_address_size(ptx_builder *b, ast_loc at, int64_t n);
void b_file(ptx_builder *b, ast_loc at, int64_t idx, const char *path);
void b_module_pragma(ptx_builder *b, ast_loc at, b_list *strings);

/* declarations */
b_spec *b_spec_add(ptx_builder *b, b_spec *s, int what, int64_t v, ast_loc at);
enum { B_SPEC_ALIGN, B_SPEC_TYPE, B_SPEC_VEC, B_SPEC_PTR, B_SPEC_SPACE };
b_dims *b_dim(ptx_builder *b, b_dims *d, int64_t n, ast_loc at); /* n < 0: [] */
b_dims *b_dim_expr(ptx_builder *b, b_dims *d, b_cval n, ast_loc at);
b_declarator *b_declarator_new(ptx_builder *b, ast_loc at, const char *name,
                               b_dims *dims, ast_init *init);
b_declarator *b_declarator_range(ptx_builder *b, ast_loc at, const char *name,
                                 int64_t count, ast_loc count_at);
b_decl *b_decl_new(ptx_builder *b, ast_loc at, int linkage, ast_space sp,
                   b_spec *spec, b_list *names);
void b_item_decl(ptx_builder *b, b_decl *d);
void b_stmt_decl(ptx_builder *b, b_decl *d);

/* initializers */
ast_init *b_init_int(ptx_builder *b, ast_loc at, int64_t v, int neg);
ast_init *b_init_expr(ptx_builder *b, ast_loc at, b_cval x);
ast_init *b_init_bits(ptx_builder *b, ast_loc at, int is_f64, uint64_t bits, int neg);
ast_init *b_init_float(ptx_builder *b, ast_loc at, const char *text, int neg);
ast_init *b_init_sym(ptx_builder *b, ast_loc at, const char *fn, const char *name,
                     int64_t off);      /* fn: NULL or "generic" */
ast_init *b_init_list(ptx_builder *b, ast_loc at, b_list *items);

/* functions */
ast_var *b_param(ptx_builder *b, ast_loc at, ast_space sp, b_spec *spec,
                 const char *name, b_dims *dims);
b_perf *b_perf_new(ptx_builder *b, ast_loc at, const char *name, b_list *args);
b_list *b_int_list(ptx_builder *b, b_list *l, int64_t v, ast_loc at);
ast_func *b_func_head(ptx_builder *b, ast_loc at, int linkage, int is_entry,
                      b_list *rets, const char *name, b_list *params,
                      b_list *perfs);
void b_func_end(ptx_builder *b, ast_func *f, int has_body);
void b_body_end(ptx_builder *b, ast_loc at);

/* statements */
void b_label(ptx_builder *b, ast_loc at, const char *name);
void b_insn(ptx_builder *b, ast_loc at, const char *guard, ast_loc gat,
            const char *mnem, b_list *opds);
void b_scope_open(ptx_builder *b, ast_loc at);
void b_scope_close(ptx_builder *b, ast_loc at);
void b_loc(ptx_builder *b, ast_loc at, int64_t f, int64_t l, int64_t c);
void b_loc_inlined(ptx_builder *b, ast_loc at, int64_t f, int64_t l, int64_t c,
                   const char *kw1, const char *fname, const char *kw2,
                   ast_loc kw2_at, int64_t inf, int64_t inl, int64_t inc);
void b_loc_fn_offset(ptx_builder *b, ast_loc at, int64_t off);  /* after b_loc_inlined */
void b_pragma(ptx_builder *b, ast_loc at, b_list *strings);
void b_branchtargets(ptx_builder *b, ast_loc at, const char *label, b_list *names);
void b_calltargets(ptx_builder *b, ast_loc at, const char *label, b_list *names);
void b_callprototype(ptx_builder *b, ast_loc at, const char *label, b_list *rets,
                     const char *name, b_list *params, b_list *perfs);
void b_alias(ptx_builder *b, ast_loc at, const char *alias, const char *target,
             ast_loc target_at);

/* constant expressions: evaluated as they are parsed */
b_cval b_cv_int(int64_t v, int uns);
b_cval b_cv_unary(ptx_builder *b, ast_loc at, int op, b_cval x);
b_cval b_cv_binary(ptx_builder *b, ast_loc at, int op, b_cval x, b_cval y);
b_cval b_cv_cond(b_cval c, b_cval x, b_cval y);
b_cval b_cv_paren(b_cval x);
/* ops for b_cv_binary besides the characters + - * / % & | ^ < >: */
enum { B_OP_SHL = 256, B_OP_SHR, B_OP_LE, B_OP_GE, B_OP_EQ, B_OP_NE, B_OP_LAND, B_OP_LOR };
/* `name iexpr`: the expression must start with + or - (an offset) */
int64_t b_offset(ptx_builder *b, ast_loc at, b_cval x);

/* operands */
ast_operand *b_opd_reg(ptx_builder *b, ast_loc at, const char *name);
ast_operand *b_opd_ident(ptx_builder *b, ast_loc at, const char *name);
ast_operand *b_opd_offset(ptx_builder *b, ast_operand *o, int64_t off, ast_loc at);
ast_operand *b_opd_not(ptx_builder *b, ast_loc at, ast_operand *o);
ast_operand *b_opd_int(ptx_builder *b, ast_loc at, int64_t v, int neg);
ast_operand *b_opd_bits(ptx_builder *b, ast_loc at, int is_f64, uint64_t bits, int neg);
ast_operand *b_opd_float(ptx_builder *b, ast_loc at, const char *text, int neg);
ast_operand *b_opd_sink(ptx_builder *b, ast_loc at);
ast_operand *b_opd_addr(ptx_builder *b, ast_loc at, ast_operand *base, int64_t off);
/* [tex, {coords}] / [tex, sampler, {coords}]: smp may be NULL */
ast_operand *b_opd_texaddr(ptx_builder *b, ast_loc at, ast_operand *tex,
                           ast_operand *smp, ast_operand *coords);
/* an integer constant expression as an operand; top: a whole operand, where
 * a parenthesized one stays a one-item call list for `call` */
ast_operand *b_opd_expr(ptx_builder *b, ast_loc at, b_cval x, int top);
ast_operand *b_opd_group(ptx_builder *b, ast_loc at, ast_opd_kind k, b_list *items);
ast_operand *b_opd_pair(ptx_builder *b, ast_loc at, ast_operand *x, ast_operand *y);
int64_t b_neg(int64_t v);

/* the whole run: defined in ptx.y (the lexer and parser live there) */
void b_run_parser(ptx_builder *b);

#endif
