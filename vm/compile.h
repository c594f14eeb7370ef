/* compile.h — private interface between the two halves of the bytecode
 * compiler: compile.c (module layout, symbols, register scopes, operand
 * resolution, emission) and compile_insn.c (instruction selection).
 *
 * Ownership: a bc_cc lives for one bc_compile call and owns its scratch
 * tables; everything that survives goes into the bc_module it builds.
 */
#ifndef PTXEMU_COMPILE_H
#define PTXEMU_COMPILE_H

#include "bc.h"
#include "util.h"

/* Slot references carry a tag until the module's layout is final:
 * tag 1 = constant pool index, 2 = function register, 3 = hidden register. */
#define CC_TAG_CONST  (1u << 28)
#define CC_TAG_REG    (2u << 28)
#define CC_TAG_HIDDEN (3u << 28)
#define CC_TAG_MASK   (3u << 28)
enum { CC_HID_FP, CC_HID_CC, CC_HID_SINK, CC_NHIDDEN };

/* What a name in a body or the module denotes. */
typedef enum cc_symkind {
    CC_SYM_VAR,      /* module/global/const/shared variable: idx into vars */
    CC_SYM_FUNC,     /* function: idx into funcs */
    CC_SYM_KPARAM,   /* kernel parameter: offset in the param buffer */
    CC_SYM_FRAME,    /* .param / .local in a frame: offset from FP */
    CC_SYM_LABEL     /* label in the current function: idx = pc (after fixup) */
} cc_symkind;

typedef struct cc_sym {
    cc_symkind kind;
    int idx;
    int64_t offset;
    int size;
    ast_type type;
} cc_sym;

typedef struct cc_reg {
    const char *name;
    uint32_t slot;           /* tagged */
    ast_type type;
    int vec;
    int prev;                /* shadowed entry, -1 none */
} cc_reg;

typedef struct cc_range {
    const char *prefix;
    int64_t count;
    uint32_t slot;           /* tagged, first register */
    ast_type type;
    int depth;
} cc_range;

typedef struct cc_local {
    const char *name;
    cc_sym sym;
    int prev;
} cc_local;

typedef struct cc_fixup { uint32_t pc; const char *label; ast_loc loc; int in_extra; } cc_fixup;

typedef struct bc_cc {
    const ast_module *ast;
    diag_list *diags;
    bc_module *m;
    VEC(bc_insn) code;
    VEC(uint32_t) extra;
    VEC(uint64_t) consts;
    VEC(bc_const_reloc) const_relocs;
    VEC(bc_func) funcs;
    VEC(const ast_func *) bodies;  /* per function, the definition whose body pass 2 compiles (NULL: none) */
    VEC(bc_var) vars;
    VEC(bc_reloc) relocs;
    VEC(bc_srcloc) srclocs;
    VEC(uint32_t) slot_lists;    /* (start, len) pairs of extra holding slots */
    strmap const_map_dummy;
    strmap globals;              /* module symbol -> index in gsyms */
    VEC(cc_sym) gsyms;
    /* the function being compiled */
    bc_func *fn;
    int fn_index;
    uint32_t nregs;              /* registers of the current function */
    uint32_t total_regs;         /* all functions so far */
    strmap regmap;               /* name -> newest cc_reg index */
    VEC(cc_reg) regs;
    VEC(cc_range) ranges;
    strmap localmap;             /* name -> newest cc_local index */
    VEC(cc_local) locals;
    VEC(int) scope_regs, scope_locals, scope_ranges;  /* marks per depth */
    int depth;
    int frame;                   /* frame bytes so far */
    strmap labels;               /* label -> pc */
    VEC(cc_fixup) fixups;
    uint32_t tmp_slot;           /* a scratch register of the function */
    const ast_stmt *st;          /* statement being compiled, for errors */
    int nerrors;
    /* const pool hashing */
    uint64_t *chash_keys;
    uint32_t *chash_vals;
    size_t chash_cap, chash_n;
    /* srcloc interning: the recent window of .loc entries, and the latest
     * entry of each (file,line,col) (loc_keys/loc_vals, open addressing) */
    VEC(int) src_last;
    uint64_t *loc_keys;
    int *loc_vals;
    size_t loc_cap, loc_n;
    strmap debug_map;            /* .debug_str label -> index in ast->debug_strs (built on first use) */
    int debug_map_built;
    VEC(uint32_t) frame_patches; /* extra indices that get the caller's frame size */
    VEC(bc_regname) regnames;    /* debug info, slots still tagged */
    VEC(int) regname_open;       /* indices of regnames whose scope is open */
    VEC(int) scope_regnames;     /* regname_open marks per depth */
    VEC(bc_label) labelinfo;
    const ast_func *afn;         /* the function being compiled, as parsed */
} bc_cc;

/* Reports an error at loc (of the current statement when loc is NULL). */
void cc_error(bc_cc *c, const ast_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

uint32_t cc_const(bc_cc *c, uint64_t v);
/* a constant slot with variable var's address + addend, patched at launch */
uint32_t cc_const_var(bc_cc *c, int var, int64_t addend);
uint32_t cc_hidden(int h);
/* A new scratch register of the current function. */
uint32_t cc_new_reg(bc_cc *c);

/* Register lookup: 0 on error (reported). Sets *type / *vec when non-NULL. */
uint32_t cc_reg_lookup(bc_cc *c, const ast_operand *o, ast_type *type);
const cc_sym *cc_sym_lookup(bc_cc *c, const char *name);

/* Appends an instruction (fills line/src/guard from the current statement)
 * and returns its pc. */
uint32_t cc_emit(bc_cc *c, bc_insn in);
/* Appends n values to extra; slots=1 marks them for slot relocation. */
uint32_t cc_extra(bc_cc *c, const uint32_t *v, int n, int slots);
void cc_fixup_label(bc_cc *c, uint32_t pc, const char *label, ast_loc loc, int in_extra);

/* Special register id (BC_SR_*) of a name like "%tid.y"; comp = 0..2. -1: none. */
int cc_sreg(const char *s, int *comp);
/* Value of a symbol operand: a constant slot; *fp_rel when it is an offset
 * from the frame pointer; *space the BC_SP_* it lies in (-1 for functions). */
uint32_t cc_sym_addr(bc_cc *c, const ast_operand *o, int *fp_rel, int *space);
/* Variables laid out so far (compile_insn.c reads their spaces). */
const bc_var *cc_var(bc_cc *c, int idx);

const bc_func *cc_func(bc_cc *c, int idx);
/* Records that extra[at] must receive the current function's frame size. */
void cc_note_frame_patch(bc_cc *c, uint32_t at);

/* compile_insn.c: a frame load / store of `size` bytes at FP + off (used for
 * .reg parameters, which travel through the frame like .param ones). */
void cc_frame_ld(bc_cc *c, uint32_t slot, int off, int size);
void cc_frame_st(bc_cc *c, int off, uint32_t slot, int size);
/* Frame bytes for a temporary of `size` bytes in the current function. */
int cc_frame_tmp(bc_cc *c, int size);

/* compile_insn.c: compiles one instruction statement. */
void cc_insn(bc_cc *c, const ast_insn *in, const ast_stmt *st);

#endif
