/* ast.h — the parsed PTX module, exactly as written (no name resolution).
 *
 * Ownership: an ast_module owns every node, array and string reachable from
 * it (all carved from the module's arena); ast_module_free releases them all
 * at once, and nothing here is ever freed piecemeal.
 *
 * The parser (parser/ptx.y) builds this through the builder calls of
 * parser/ast_build.h (private to the parser); the bytecode compiler (vm/compile.c) reads it.  Nothing here is
 * checked beyond syntax: undeclared registers, unknown labels, operand counts
 * and types are the compiler's business, reported at the locations kept here.
 */
#ifndef PTXEMU_AST_H
#define PTXEMU_AST_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"

/* Source position in the .ptx file, 1-based (col counts bytes). */
typedef struct ast_loc {
    int line, col;
} ast_loc;

/* One `.loc FILE LINE COL[, function_name SYM[+OFF], inlined_at F L C]` record. */
typedef struct ast_srcloc {
    int file, line, col;             /* file == 0: no .loc seen yet */
    const char *function_name;       /* label in .debug_str, or NULL; for SYM+OFF
                                        the text "SYM+OFF", which debug_strs also
                                        lists (the string OFF bytes into SYM's)
                                        when SYM's string is that long */
    int in_file, in_line, in_col;    /* inlined_at, in_file == 0: none */
    const char *function_base;       /* SYM of function_name (== it without +OFF) */
    int64_t function_off;            /* OFF, 0 if none */
} ast_srcloc;

/* ---- types ------------------------------------------------------------- */

/* A PTX fundamental type; the enum order is relied upon by nothing. */
typedef enum ast_type {
    AST_T_NONE = 0,
    AST_T_PRED,
    AST_T_B8, AST_T_B16, AST_T_B32, AST_T_B64, AST_T_B128,
    AST_T_U8, AST_T_U16, AST_T_U32, AST_T_U64,
    AST_T_S8, AST_T_S16, AST_T_S32, AST_T_S64,
    AST_T_F16, AST_T_F16X2, AST_T_BF16, AST_T_BF16X2,
    AST_T_F32, AST_T_F64, AST_T_TF32,
    AST_T_E4M3X2, AST_T_E5M2X2,
    AST_T_COUNT
} ast_type;

/* Maps ".u32" or "u32" (without the dot also accepted) to its type;
 * AST_T_NONE when the word is not a type. */
ast_type ast_type_from_name(const char *s, size_t n);
const char *ast_type_name(ast_type t);    /* "u32"; "" for NONE */
int ast_type_size(ast_type t);            /* bytes; pred = 1, none = 0 */

/* ---- operands ---------------------------------------------------------- */

typedef enum ast_opd_kind {
    AST_OPD_REG,      /* name: "%r1", "%tid.x", "p", "%SP"; neg: `!%p` */
    AST_OPD_INT,      /* ival: decimal/hex/octal/binary, negated, WARP_SZ */
    AST_OPD_F32,      /* bits: 0fXXXXXXXX */
    AST_OPD_F64,      /* bits: 0dXXXXXXXXXXXXXXXX or a decimal float literal */
    AST_OPD_SYM,      /* name (+ ival offset): `foo`, `foo+4`, label names */
    AST_OPD_ADDR,     /* [base + ival]: base is sub[0] (REG or SYM) or absent
                         (nsub == 0, absolute address ival); texture/surface
                         forms [tex, coords] (nsub 2) and [tex, sampler,
                         coords] (nsub 3): sub[0] the texture/surface, sub[1]
                         the sampler, the last sub the coordinates (a VEC,
                         or a single value), ival 0 */
    AST_OPD_VEC,      /* {a, b, c, d}: sub[0..nsub) are REG or SINK (or INT) */
    AST_OPD_PAIR,     /* d|p: sub[0] and sub[1] */
    AST_OPD_LIST,     /* ( a, b, ... ) of a call: sub[0..nsub) */
    AST_OPD_SINK      /* _ */
} ast_opd_kind;

typedef struct ast_operand ast_operand;
struct ast_operand {
    ast_opd_kind kind;
    ast_loc loc;
    const char *name;        /* REG, SYM */
    int neg;                 /* REG: written with a leading `!` */
    int64_t ival;            /* INT value, SYM / ADDR offset */
    uint64_t bits;           /* F32 (low 32 bits) / F64 bit pattern */
    int nsub;
    ast_operand **sub;       /* ADDR, VEC, PAIR, LIST */
};

/* ---- instructions and statements ---------------------------------------- */

/* One instruction as written: "ld.global.nc.v4.f32" is split at the dots into
 * op = "ld" and mods = {"global","nc","v4","f32"} (without the dots). */
typedef struct ast_insn {
    const char *text;        /* full mnemonic as written, for messages */
    const char *op;
    int nmods;
    const char **mods;
    const char *guard;       /* "@%p1" -> "%p1"; NULL if unguarded */
    int guard_neg;           /* "@!%p1" */
    ast_loc guard_loc;
    int nopds;
    ast_operand **opds;
} ast_insn;

/* A declared register: `.reg .b32 %r<5>` gives name "%r", count 5 (and
 * means %r0..%r4); `.reg .pred %p1, %q` gives two decls with count 0. */
typedef struct ast_regdecl {
    ast_type type;
    int vec;                 /* 0, 2 or 4 (.v2/.v4 registers) */
    const char *name;
    int64_t count;           /* 0: a single register named `name` */
} ast_regdecl;

typedef enum ast_space {
    AST_SPACE_NONE = 0, AST_SPACE_REG, AST_SPACE_SREG, AST_SPACE_CONST,
    AST_SPACE_GLOBAL, AST_SPACE_LOCAL, AST_SPACE_PARAM, AST_SPACE_SHARED,
    AST_SPACE_TEX, AST_SPACE_GENERIC
} ast_space;

const char *ast_space_name(ast_space s);  /* "global"; "" for NONE */

/* Linkage bits of a declaration. */
enum { AST_VISIBLE = 1, AST_EXTERN = 2, AST_WEAK = 4, AST_COMMON = 8 };

/* An initializer value of a variable: an integer, a float bit pattern, a
 * symbol address (`foo`, `generic(foo)`, `foo+8`), or a nested brace list. */
typedef enum ast_init_kind {
    AST_INIT_INT, AST_INIT_F32, AST_INIT_F64, AST_INIT_SYM, AST_INIT_LIST
} ast_init_kind;

typedef struct ast_init ast_init;
struct ast_init {
    ast_init_kind kind;
    ast_loc loc;
    int64_t ival;            /* INT; SYM offset */
    uint64_t bits;           /* F32 / F64 */
    const char *name;        /* SYM */
    int generic;             /* SYM written as generic(foo) */
    int n;                   /* LIST */
    ast_init **items;
};

/* A variable in a state space (module level or inside a body), and also a
 * function parameter (space PARAM, or REG for `.reg` params of a .func). */
typedef struct ast_var {
    ast_loc loc;
    ast_space space;
    int linkage;             /* AST_VISIBLE | ... */
    int align;               /* 0: natural */
    ast_type type;
    int vec;                 /* 0, 2, 4 */
    const char *name;
    int ndims;               /* array dimensions */
    int64_t dims[4];         /* -1: `[]` (unsized, e.g. extern shared) */
    int ptr;                 /* param with .ptr */
    ast_space ptr_space;     /* .ptr.global etc.; NONE if not given */
    int ptr_align;           /* .ptr ... .align N */
    ast_init *init;          /* NULL: none */
} ast_var;

typedef enum ast_stmt_kind {
    AST_ST_INSN,             /* u.insn */
    AST_ST_LABEL,            /* u.label */
    AST_ST_REG,              /* u.reg */
    AST_ST_VAR,              /* u.var (.local/.shared/.param/.const/.global in a body) */
    AST_ST_OPEN,             /* `{` : a nested scope begins */
    AST_ST_CLOSE,            /* `}` */
    AST_ST_PRAGMA,           /* u.text: the pragma string(s) */
    AST_ST_BRANCHTARGETS     /* `lbl: .branchtargets a, b;`  u.targets */
} ast_stmt_kind;

struct ast_func;

typedef struct ast_stmt {
    ast_stmt_kind kind;
    ast_loc loc;
    ast_srcloc src;          /* the last .loc before this statement */
    /* LABEL written as `lbl: .callprototype ...;`: the prototype (name = the
     * label, rets/params as declared, has_body 0); NULL otherwise */
    const struct ast_func *proto;
    /* LABEL written as `lbl: .calltargets f, g;`: the functions */
    int ncalltargets;
    const char **calltargets;
    union {
        ast_insn insn;
        const char *label;
        ast_regdecl reg;
        ast_var var;
        const char *text;
        struct { const char *label; int n; const char **names; } targets;
    } u;
} ast_stmt;

/* ---- functions and the module ------------------------------------------ */

typedef struct ast_func {
    ast_loc loc;
    int is_entry;            /* .entry (kernel) vs .func */
    int linkage;
    const char *name;
    int nrets;               /* .func return parameters */
    ast_var *rets;
    int nparams;
    ast_var *params;
    int64_t maxntid[3], reqntid[3];  /* 0 where not given */
    int64_t minnctapersm, maxnreg;
    int noreturn;
    int64_t maxclusterrank;          /* 0 where not given */
    int64_t reqnctapercluster[3];    /* 0 where not given */
    int explicitcluster;             /* .explicitcluster */
    int blocksareclusters;           /* .blocksareclusters */
    int has_body;            /* 0: a prototype (`.extern .func f(...);`) */
    int nstmts;
    ast_stmt *stmts;         /* flat; scopes are AST_ST_OPEN/CLOSE pairs, and the
                                body's own braces are NOT included */
} ast_func;

typedef struct ast_file {
    int index;               /* .file N */
    const char *path;
} ast_file;

/* `.alias name, target;` (module level). */
typedef struct ast_alias {
    ast_loc loc;
    const char *name, *target;
    ast_loc target_loc;
} ast_alias;

typedef struct ast_debug_str {
    const char *label;       /* $L__info_string0 */
    const char *text;        /* the NUL-terminated bytes of its .b8 list */
} ast_debug_str;

/* Top-level items keep their textual order. */
typedef enum ast_item_kind { AST_ITEM_VAR, AST_ITEM_FUNC } ast_item_kind;
typedef struct ast_item {
    ast_item_kind kind;
    union { ast_var *var; ast_func *func; } u;
} ast_item;

typedef struct ast_arena ast_arena;   /* private to ast.c */

typedef struct ast_module {
    const char *path;        /* the file name used in diagnostics */
    int version_major, version_minor;
    const char *target;      /* "sm_90" (first target word) */
    int target_debug;        /* `.target sm_90, debug` */
    int address_size;        /* 64 unless stated */
    int nitems;
    ast_item *items;
    int nfiles;
    ast_file *files;
    int ndebug_strs;
    ast_debug_str *debug_strs;
    ast_arena *arena;
    int naliases;            /* .alias directives, in order */
    ast_alias *aliases;
} ast_module;

/* ---- entry points ------------------------------------------------------ */

/* Parses `len` bytes of `text` (need not be NUL-terminated and may contain
 * NUL bytes) named `path` in messages.  Every error goes to `diags` (which
 * keeps going after an error where recovery allows).  Returns the module, or
 * NULL when any error was reported (diags then says why).  Never crashes, never
 * exits, memory proportional to the input. */
ast_module *ast_parse(const char *path, const char *text, size_t len,
                      diag_list *diags);

void ast_module_free(ast_module *m);

#endif
