/* bc.h — the compiled, pre-decoded form of a PTX module (bytecode).
 *
 * Ownership: a bc_module owns its code, constant pool, symbol tables, data
 * images and strings; bc_module_free releases all of it.  It is immutable
 * after bc_compile, so any number of launches (and threads) may share it.
 *
 * Every operand the VM reads is a register slot: immediates, symbol addresses
 * and the hidden registers (frame pointer, carry flag, sink) live in slots too,
 * so handlers never ask "is this an immediate?" at run time.  Slot numbers
 * are stored pre-multiplied by BC_WARP (the register file is laid out
 * [slot][lane]), so a handler reads lane l of operand a as R[I->a + l].
 */
#ifndef PTXEMU_BC_H
#define PTXEMU_BC_H

#include <stdint.h>
#include <stdio.h>
#include "ast.h"
#include "diag.h"

#define BC_WARP 32                     /* lanes per warp */
#define BC_MAX_SLOTS (1u << 16)        /* register slots per module (a warp holds 32 x 8 bytes each) */
#define BC_NO_GUARD 0xffffffffu
#define BC_LOW_BITS(n) ((n) >= 64 ? ~0ull : (1ull << (n)) - 1)   /* the mask of cvt.zx's imm bits */
/* Function "addresses" (for indirect calls) are BC_FUNC_ADDR_BASE + index. */
#define BC_FUNC_ADDR_BASE 0xF0000000ull

/* Operand formats, for the disassembler and the operand checks. */
typedef enum bc_fmt {
    F_NONE,     /* no operands */
    F_D,        /* d */
    F_DA,       /* d, a */
    F_DAB,      /* d, a, b */
    F_DABC,     /* d, a, b, c */
    F_LD,       /* d (n regs at x), [a + imm] */
    F_ST,       /* [a + imm], b (n regs at x) */
    F_ATOM,     /* d, [a + imm], b, c */
    F_BRA,      /* target (imm) */
    F_CALL,     /* call: func (imm), n args / rets at x */
    F_SREG,     /* d, special register (imm) */
    F_COLL,     /* d|e, a, b, c, mask */
    F_BAR,      /* d, id a, count b, pred c */
    F_MMA       /* matrix collective: {d..}, {a..}, {b..}, {c..} at x (counts first) */
} bc_fmt;

/* The opcode enum, from the one opcode table. */
typedef enum bc_op {
#define OP(name, text, fmt) OP_##name,
#include "ops.def"
#undef OP
    OP__COUNT
} bc_op;

extern const char *const bc_op_name[OP__COUNT];
extern const unsigned char bc_op_fmt[OP__COUNT];

/* Modifier values kept in bc_insn.m1..m3 by families that need them. */
enum { BC_RN, BC_RZ, BC_RM, BC_RP };                      /* float rounding */
enum { BC_RNI, BC_RZI, BC_RMI, BC_RPI, BC_RNONE };        /* integer rounding */
enum { BC_CMP_EQ, BC_CMP_NE, BC_CMP_LT, BC_CMP_LE, BC_CMP_GT, BC_CMP_GE,
       BC_CMP_EQU, BC_CMP_NEU, BC_CMP_LTU, BC_CMP_LEU, BC_CMP_GTU, BC_CMP_GEU,
       BC_CMP_NUM, BC_CMP_NAN };
enum { BC_BOOL_AND, BC_BOOL_OR, BC_BOOL_XOR };
enum { BC_SHFL_UP, BC_SHFL_DOWN, BC_SHFL_BFLY, BC_SHFL_IDX };
enum { BC_RED_ADD, BC_RED_MIN, BC_RED_MAX, BC_RED_AND, BC_RED_OR, BC_RED_XOR,
       BC_RED_INC, BC_RED_DEC, BC_RED_EXCH, BC_RED_CAS, BC_RED_POPC };
/* Value kinds for atomics, redux, half ops: */
enum { BC_K_U32, BC_K_S32, BC_K_U64, BC_K_S64, BC_K_F32, BC_K_F64,
       BC_K_F16, BC_K_F16X2, BC_K_BF16, BC_K_BF16X2 };
/* State spaces an address may name. */
enum { BC_SP_GENERIC, BC_SP_GLOBAL, BC_SP_SHARED, BC_SP_LOCAL, BC_SP_CONST,
       BC_SP_KPARAM };
/* Special registers (the imm of OP_SREG). */
enum { BC_SR_TID, BC_SR_NTID, BC_SR_CTAID, BC_SR_NCTAID, BC_SR_LANEID,
       BC_SR_WARPID, BC_SR_NWARPID, BC_SR_SMID, BC_SR_NSMID, BC_SR_GRIDID,
       BC_SR_LANEMASK_EQ, BC_SR_LANEMASK_LT, BC_SR_LANEMASK_LE,
       BC_SR_LANEMASK_GT, BC_SR_LANEMASK_GE, BC_SR_CLOCK, BC_SR_CLOCK64,
       BC_SR_GLOBALTIMER, BC_SR_DYN_SMEM, BC_SR_TOTAL_SMEM, BC_SR_CLUSTERID,
       BC_SR_NCLUSTERID, BC_SR_CLUSTER_CTAID, BC_SR_CLUSTER_NCTAID,
       BC_SR_CLUSTER_CTARANK, BC_SR_CLUSTER_NCTARANK, BC_SR_IS_EXPLICIT_CLUSTER,
       BC_SR_PM0, BC_SR_ENVREG, BC_SR_RESERVED_SMEM };
/* component (m1) of BC_SR_RESERVED_SMEM: begin, end, cap, then offset_<n> as 3 + n */

/* One pre-decoded instruction.  Field use per opcode is stated in ops.def. */
typedef struct bc_insn {
    uint16_t op;
    uint8_t m1, m2, m3;          /* modifiers (rounding, cmp, kind, ...) */
    uint8_t n;                   /* vector length / operand count */
    uint8_t gneg;                /* guard is negated */
    uint8_t flags;               /* BC_IF_* */
    uint32_t guard;              /* predicate slot*32, or BC_NO_GUARD */
    uint32_t d, a, b, c, e;      /* slots * BC_WARP */
    uint32_t x;                  /* index into bc_module.extra */
    int64_t imm;                 /* offset, target pc, function, id, ... */
    int32_t line;                /* PTX line */
    int32_t src;                 /* index into bc_module.srclocs, -1: none */
} bc_insn;

enum {
    BC_IF_FTZ = 1, BC_IF_SAT = 2, BC_IF_NEG = 4, BC_IF_ALIGNED = 8,
    BC_IF_HAS_E = 16, BC_IF_VOLATILE = 32, BC_IF_BACK = 64,
    BC_IF_RELU = 128,      /* .relu (half fma, cvt); cvt reuses it for nothing else */
    /* ld/st.local (NEG is meaningless there): one unsigned 4- or 8-byte value at FP + imm,
     * aligned and inside the function's frame, so in range for every lane (vm/compile.c) */
    BC_IF_FRAME = BC_IF_NEG
};

/* A CUDA source position (from .loc), with the inlined-at parent. */
typedef struct bc_srcloc {
    int file, line, col;
    int parent;                  /* index of the inlined-at location, -1 none */
    const char *func;            /* inlined function name (demangled no), or NULL */
} bc_srcloc;

/* Parameter of a function, as laid out in its frame (or the kernel param
 * buffer for an entry). */
typedef struct bc_param {
    const char *name;
    ast_type type;
    int size, align, offset;
} bc_param;

typedef enum bc_func_kind {
    BC_FN_DEFINED, BC_FN_BUILTIN, BC_FN_EXTERN
} bc_func_kind;

enum { BC_BUILTIN_VPRINTF = 1, BC_BUILTIN_ASSERTFAIL, BC_BUILTIN_MALLOC,
       BC_BUILTIN_FREE };

typedef struct bc_func {
    const char *name;
    int is_entry;
    bc_func_kind kind;
    int builtin;                 /* BC_BUILTIN_* */
    int nparams, nrets;
    bc_param *params, *rets;     /* entry: offsets in the kernel param buffer */
    int param_size;              /* entry: kernel param buffer size */
    uint32_t pc_begin, pc_end;   /* [begin, end) in bc_module.code */
    uint32_t slot_base, nslots;  /* the function's own registers */
    int frame_size;              /* local bytes per activation */
    int line;
    int64_t reqntid[3], maxntid[3];
} bc_func;

/* A module variable in global or const memory, with its initial bytes. */
typedef struct bc_var {
    const char *name;
    int space;                   /* BC_SP_GLOBAL / CONST / SHARED */
    uint64_t size, align;
    uint64_t offset;             /* CONST/SHARED: offset in the space; GLOBAL:
                                    offset in the module's global image */
    int is_extern_shared;        /* .extern .shared x[] (dynamic) */
} bc_var;

/* A relocation in the global/const image: the address of symbol `var`
 * (+ addend) written at `at` (8 bytes) once the module is placed. */
typedef struct bc_reloc {
    int space;                   /* image holding the pointer */
    uint64_t at;
    int var;                     /* index in vars */
    int64_t addend;
    int generic;
} bc_reloc;

/* A constant-pool slot whose value depends on where the module is placed
 * (a global variable's address) or on the kernel launched (a shared
 * variable's offset: each kernel lays out only the static shared variables
 * it can reach, as ptxas does): patched at launch. */
typedef struct bc_const_reloc {
    uint32_t slot;
    int var;
    int64_t addend;
    int func;                    /* the function whose code reads the slot (-1: none) */
} bc_const_reloc;

/* Debug information: a register name visible in [pc_begin, pc_end) of its
 * function.  count > 0: a range %r<count> (names prefix0..prefix(count-1)
 * in consecutive slots from slot). */
typedef struct bc_regname {
    int func;
    const char *name;
    ast_type type;
    int vec;
    int64_t count;
    uint32_t slot;               /* slot * BC_WARP, like instruction fields */
    uint32_t pc_begin, pc_end;
} bc_regname;

typedef struct bc_label {
    int func;
    const char *name;
    uint32_t pc;
} bc_label;

typedef struct bc_module {
    const char *path;
    bc_insn *code;
    uint32_t ncode;
    bc_func *funcs;
    int nfuncs;
    uint32_t *extra;             /* operand lists (vectors, call args) */
    uint32_t nextra;
    uint64_t *consts;            /* constant pool, slots [0, nconsts) */
    uint32_t nconsts;
    bc_const_reloc *const_relocs;
    int nconst_relocs;
    uint32_t nslots;             /* total register slots */
    uint32_t slot_fp, slot_cc, slot_sink;  /* hidden registers */
    bc_var *vars;
    int nvars;
    uint8_t *global_image;       /* initial bytes of .global variables */
    uint64_t global_size;
    uint8_t *const_image;        /* the .const bank */
    uint64_t const_size;
    uint64_t shared_static;      /* bytes of static .shared (module-wide) */
    bc_reloc *relocs;
    int nrelocs;
    bc_srcloc *srclocs;
    int nsrclocs;
    const char **files;          /* .file index -> path (NULL where unused) */
    int nfiles;
    int target_sm;               /* 90 for sm_90 */
    bc_regname *regnames;        /* debug information (ptxemu debug) */
    int nregnames;
    bc_label *labels;
    int nlabels;
    uint8_t *maybe_uninit;       /* per slot: a thread may read it before writing it (vm/flow.c), or NULL */
    uint32_t *call_save;         /* per pc of a call: index in call_save_list (vm/flow.c), or NULL */
    uint32_t *call_save_list;    /* [count, slot..., plan...]: the caller's registers a call saves,
                                  * then its .param copy plan (BC_CALL_PLAN_*) */
    uint32_t *call_plan;         /* per pc of a call: index of its plan in call_save_list (with call_save) */
    uint64_t *store_roots;       /* per function: bc_flow_store_roots, or NULL */
    bc_insn *fused;              /* code with superinstructions (vm/fuse.c), or NULL */
    struct bc_fuse_head *fuse_heads;  /* per OP_LDS_FMA head (its x): its triples decoded (vm/fuse.c) */
    struct bc_fuse_step *fuse_steps;
    struct bc_fuse_bra *fuse_bras;    /* per OP_SETP_BRA head (its x): its run decoded (vm/fuse.c) */
} bc_module;

/* Compiles a parsed module; every error goes to diags (with the .ptx
 * position) and compiling goes on to find more.  Returns NULL on error. */
bc_module *bc_compile(const ast_module *m, diag_list *diags);
void bc_module_free(bc_module *m);

/* flow.c: per slot, whether a thread may read the register before writing
 * it (conservative); malloc'd, NULL when out of memory. */
uint8_t *bc_flow_maybe_uninit(const bc_module *m);
/* A call's .param copy plan, after its saved registers in call_save_list:
 * [0] 1 when planned (a direct call whose counts match the callee's, at
 * most BC_CALL_PLAN_MAX of each; else the plan is that one word), then the
 * argument count, the end of the highest argument in the callee's frame,
 * whether every argument copy is 4 bytes, the same three for the results,
 * the caller's frame size (the callee's frame pointer minus the caller's)
 * and the callee's frame size; then per argument (source offset in the
 * caller's frame, destination in the callee's, bytes), and per result
 * (source in the callee's frame, destination in the caller's, bytes). */
enum {
    BC_CALL_PLAN_MAX = 8,
    BC_CALL_PLAN_NP = 1, BC_CALL_PLAN_HWP, BC_CALL_PLAN_ALL4P, BC_CALL_PLAN_NR, BC_CALL_PLAN_HWR,
    BC_CALL_PLAN_ALL4R, BC_CALL_PLAN_OFF, BC_CALL_PLAN_FEND, BC_CALL_PLAN_COPIES
};
/* The .param copies of the call whose operands are at extra[xi], to
 * function fidx: its arguments (results = 0; caller's frame to callee's) or
 * its results (1; callee's to caller's), as the plan's triples into t (at
 * most BC_CALL_PLAN_MAX of them fit a plan); returns how many, *end the
 * highest end of a destination, *all4 whether every copy is 4 bytes. */
static inline uint32_t bc_call_copies(const bc_module *m, uint32_t xi, int fidx, int results, uint32_t *t,
                                      uint32_t *end, uint32_t *all4)
{
    const bc_func *f = &m->funcs[fidx];
    const uint32_t *x = &m->extra[xi];
    uint32_t n = results ? x[1] : x[0], first = results ? x[0] : 0;
    *end = 0;
    *all4 = 1;
    for (uint32_t k = 0; k < n; k++, t += 3) {
        const uint32_t *o = &x[3 + 3 * (first + k)];   /* caller's offset, callee's (or UINT32_MAX), bytes */
        const bc_param *p = results ? &f->rets[k] : &f->params[k];
        uint32_t callee = o[1] == UINT32_MAX ? (uint32_t)p->offset : o[1];
        uint32_t bytes = o[2] > (uint32_t)p->size ? (uint32_t)p->size : o[2];
        t[0] = results ? callee : o[0];
        t[1] = results ? o[0] : callee;
        t[2] = bytes;
        if (t[1] + bytes > *end) *end = t[1] + bytes;
        *all4 &= bytes == 4;
    }
    return n;
}

/* flow.c: per kernel (entry function index), what the address of any store
 * (st, atom/red, stmatrix, wmma.store to memory other than shared or local)
 * the kernel may run (in it or in what it calls) may be computed from:
 * bit w (w < BC_ROOT_GLOBALS) the kernel parameter bytes [8w, 8w + 8),
 * BC_ROOT_GLOBALS the address of a module .global variable, BC_ROOT_ANY
 * anything else (a value loaded from memory, a call's result, an offset past
 * 8 * BC_ROOT_GLOBALS).  Flow-insensitive and meant to over-approximate: a
 * register derives from every root of every operand of every instruction
 * that writes it.  A parallel launch still checks each write against it. */
enum { BC_ROOT_GLOBALS = 62, BC_ROOT_ANY = 63 };
uint64_t *bc_flow_store_roots(const bc_module *m);   /* malloc'd, NULL when out of memory */

/* fuse.c: sets m->fused, a copy of m->code with the first instruction of
 * every run a superinstruction executes marked (OP_LDS_FMA...), and the
 * decoded runs (fuse_heads, fuse_steps); all NULL when there is none or
 * memory ran out.  Only runs without observers use them. */
void bc_fuse(bc_module *m);
/* One triple of an OP_LDS_FMA run as the handler takes it from a head: the
 * offsets of its loads from the head's two base registers, the slots its
 * first load, second load and fma write, the results it need not write
 * (BC_FUSE_*_DEAD), and whether it loads from the head's second base first. */
typedef struct bc_fuse_step { int64_t ia, ib; uint32_t dx, dy, dacc, dead, sw; } bc_fuse_step;
/* A head (the fused instruction's x): its b triples are fuse_steps[first ..
 * first + b), whose offsets from the two bases lie in [alo, ahi], [blo, bhi]; the
 * first ndead of them write nothing (dead: every BC_FUSE_*_DEAD). */
typedef struct bc_fuse_head { int64_t alo, ahi, blo, bhi; uint32_t first, ndead; int32_t fin; } bc_fuse_head;
/* A fused head whose address rows are final where it runs (bc_flow_final_at) has a cache id
 * below BC_FIN_MAX (bc_fuse_head.fin; an OP_LDG_STS its m2 = id + 1 for the store's row; an
 * OP_SETP_BRA's compare of two final rows bc_fuse_bra.fin1/fin2), else -1 (0): a warp's handler
 * checks those rows' shapes and ranges, or computes the compare's lanes, once per block. */
enum { BC_FIN_MAX = 64 };
/* Whether the superinstruction at pc (of bc_module.fused) has such a cache id. */
int bc_fuse_cached(const bc_module *m, uint32_t pc);
/* OP_LDS_FMA's e: results of the triple the handler need not write; the
 * triple's first load is from the second base register of the run's first;
 * its fma is fma.rn.ftz.f32 (every fma of a run is the same) */
enum { BC_FUSE_X_DEAD = 1, BC_FUSE_Y_DEAD = 2, BC_FUSE_ACC_DEAD = 4, BC_FUSE_SWAP = 8, BC_FUSE_FTZ = 16 };
/* An OP_SETP_BRA head (the fused instruction's x), a compare and a conditional branch:
 *     setp k1 d1 = a1 ? b1;  [setp k2 d2 = a2 ? b2;  bop d3 = d1, d2;]  [mov md = ma;]  @[!]p bra target
 * with the mov anywhere after the first setp, p = d3 (two compares) or d1, len instructions in
 * all; k1, k2 are the setp opcodes (OP_SETP_EQ ... OP_SETP_LE_U), k2 = 0 with one compare,
 * bop OP_AND, OP_OR or OP_XOR, md = BC_NO_GUARD without a mov (a mov, or a cvt.zx such as
 * mov.f32 compiles to: md = ma & mmask); dead: the predicates no other instruction reads
 * (BC_FUSE_D1_DEAD...), which the handler need not write; BC_FUSE_MD_FALL: the lanes that do
 * not branch overwrite md before reading it (bc_flow_overwritten: nvcc's `mov x, 0` before a
 * guarded load into x), so the handler writes it only for the lanes that branch. */
typedef struct bc_fuse_bra {
    uint64_t mmask;
    uint32_t a1, b1, d1, a2, b2, d2, d3, md, ma, target, len;   /* target: the bra's (read from its
                                                                  * insn instead, every benchmark ran 0.6-1% more host instructions) */
    uint16_t k1, k2, bop;
    uint8_t neg, dead;
    int8_t fin1, fin2;                 /* each compare's cache id when both its operands are final (BC_FIN_MAX), or -1 */
} bc_fuse_bra;
enum { BC_FUSE_D1_DEAD = 1, BC_FUSE_D2_DEAD = 2, BC_FUSE_D3_DEAD = 4, BC_FUSE_MD_FALL = 8 };
/* The instructions an OP_ALU_RUN runs (besides OP_CVT_ZX), unguarded: vm/fuse.c marks runs of
 * them, vm/exec.c's handler has a case for each (their lane expressions ALU_<name>; the 32-bit
 * multiplies and shifts also have whole-warp rows there, BC_ALU_RUN_ROWS). */
#define BC_ALU_RUN_PLAIN(X) X(MOV) X(ADD_16) X(ADD_32) X(ADD_64) X(SUB_32) X(SUB_64) X(MAD_16) \
    X(AND) X(OR) X(XOR) X(NOT_32) X(SHL_64) X(SHR_U16) X(SHR_U64)
#define BC_ALU_RUN_ROWS(X) X(MUL_32) X(MAD_32) X(SHL_32) X(SHR_U32) X(SHR_S32)
#define BC_ALU_RUN_OPS(X) BC_ALU_RUN_PLAIN(X) BC_ALU_RUN_ROWS(X)

/* flow.c: count[r], for each register r of defined function f (f->nslots
 * of them), = how many operand fields of f's instructions read it (the
 * conservative reads of the analyses above); -1 when some instruction's
 * reads cannot all be listed (count[] then means nothing). */
int bc_flow_read_counts(const bc_module *m, const bc_func *f, uint32_t *count);
/* flow.c: whether the row that slot field v names is final wherever a whole warp of kernel
 * f stands at pc (absolute): a constant; or a register of f that one instruction may write,
 * which dominates pc and lies on no cycle of f (every lane at pc came through it once and
 * none comes again), in a kernel without calls or indirect branches.  The fused handlers
 * then check that row's shape once per warp and block (vm_warp.fin_ok). */
int bc_flow_final_at(const bc_module *m, const bc_func *f, uint32_t v, uint32_t pc);
/* flow.c: whether every lane that goes on at pc (absolute, in f) surely writes the register
 * that slot field v names before anything could read it, on the straight line from pc (no
 * branch, call, return or exit on the way; a collective that reads it reads it).  A value
 * written to it just before then is never seen: the fused compare-and-branch skips a mov
 * into it for the lanes that do not branch (BC_FUSE_MD_FALL). */
int bc_flow_overwritten(const bc_module *m, const bc_func *f, uint32_t v, uint32_t pc);

/* flow.c: in code (a copy of m->code for runs without observers, vm/fuse.c), the
 * register operands of f's collectives that surely hold a constant set by an unguarded
 * mov (earlier in their basic block, or the register's only setter in f) name the
 * constant's slot instead; returns how many fields changed, -1 (code unchanged) when
 * out of memory. */
int bc_flow_forward_consts(const bc_module *m, const bc_func *f, bc_insn *code);

/* flow.c: fills call_save, call_plan and call_save_list; -1 (all NULL) when out of memory. */
int bc_flow_call_saves(bc_module *m);

/* Looks a function up by name; -1 if absent. */
int bc_find_func(const bc_module *m, const char *name);
/* The function containing pc; -1 if none. */
int bc_func_at(const bc_module *m, uint32_t pc);

/* The slot (* BC_WARP) of register `name` ("%r5", "%p1", "%v.x") as seen
 * at pc, and its type; returns -1 if no such register is visible there. */
int bc_lookup_reg(const bc_module *m, uint32_t pc, const char *name, uint32_t *slot, ast_type *type);

/* Writes the disassembly of the whole module (or one function, func >= 0). */
void bc_disassemble(const bc_module *m, int func, FILE *out);
/* Formats one instruction into buf (no newline). */
void bc_format_insn(const bc_module *m, uint32_t pc, char *buf, size_t len);
/* "file.cu:12:5" (with " inlined at ..." chain when `chain`) for a srcloc. */
void bc_format_srcloc(const bc_module *m, int src, int chain, char *buf, size_t len);

#endif
