/* check_def.c — the checker's definedness tracking, in the manner of
 * Valgrind's memcheck and MemorySanitizer: which bytes of registers and of
 * shared and local memory hold values that come from memory nothing wrote
 * (or from a shuffle of a live lane inside the mask's span but not in it).  Such values may be
 * loaded, moved, combined and stored to shared or local memory freely;
 * they are reported where they are used: a branch decision (or the guard
 * of an instruction with effects), an address, a store to global memory,
 * an operand of a collective, an atomic or a barrier, a printf or host-call
 * argument.  The report names the use and the load the value came from.
 *
 * Shadow state: per register slot per lane a byte (bit i: byte i of the
 * value is undefined) and a 16-bit origin; per shared byte and per local
 * byte a "defined" bit; origins of undefined bytes written to memory in a
 * small table.  Global memory is always defined (the host wrote it).
 * Propagation runs in the step hook, before each instruction, from the
 * operands' shadows (and, for and/or/selp, their values: a defined zero
 * decides an `and`); loads and stores in the access hook; shuffles when the
 * collective completes.  A warp whose registers never held an undefined
 * value (`tainted` clear) skips propagation, so clean code pays a test
 * per instruction.  Registers start defined: only memory and shuffles
 * create undefined values.
 *
 * Ownership: a chk_def belongs to one schedule (one thread).
 */
#include <stdlib.h>
#include <string.h>
#include "check_int.h"
#include "printf.h"

#define W32 BC_WARP
#define BIT(l) (1u << (l))
#define ORIGIN_MAX 0xffffu

/* Propagation rules. */
enum {
    DR_NONE, DR_DEF, DR_SMEAR, DR_MOV, DR_BYTEWISE, DR_AND, DR_OR, DR_PACK2, DR_PACK4, DR_UNPACK, DR_CVT_ZX,
    DR_CVT_SX, DR_SELP, DR_SLCT, DR_SHL, DR_SHR, DR_BFE, DR_BFI, DR_PRMT, DR_SETP_BOOL,
    /* from here on the instruction has effects: an undefined guard is a use */
    DR_EFFECTS, DR_LD = DR_EFFECTS, DR_ST, DR_ATOM, DR_CPASYNC, DR_MBAR, DR_BRA, DR_BRX, DR_CALL, DR_CALLI,
    DR_CALLX, DR_RET, DR_EXIT, DR_SHFL, DR_VOTE, DR_MATCH, DR_REDUX, DR_ELECT, DR_WARPSYNC, DR_BAR, DR_MMA,
    DR_MMA_MEM, DR_ACTIVEMASK
};
enum { CC_IN = 1, CC_OUT = 2 };

typedef struct dstack { uint8_t *u; uint16_t *o; uint32_t n, cap; } dstack;

typedef struct dwarp {
    uint8_t *u;                  /* [slot * 32 + lane] undefined bytes */
    uint16_t *o;                 /* their origin (index + 1 into chk_def.orig; 0 none) */
    int *taint;                  /* some register may hold an undefined byte (in chk_def.q.taint) */
    uint32_t shfl_b[W32], shfl_c[W32];   /* shuffle operands, kept until the rendezvous completes */
    dstack stk[W32];             /* shadows of the registers a call saved */
    uint8_t *g;                  /* [slot * 32 + lane] the value depends on an __activemask() grouping */
    uint16_t *ge;                /* its grouping event (index + 1 into chk_def.ev) */
    int gtainted;                /* some register may hold such a value */
} dwarp;

typedef struct dcta {
    dwarp *w;
    uint8_t *sh_def;             /* bit per shared byte: 1 defined */
    uint8_t **loc_def;           /* per thread: bit per local byte (NULL: nothing written yet) */
    uint64_t *okey;              /* undefined bytes written to memory: key -> origin (open addressing) */
    uint16_t *oval;
    uint32_t ocap, on;
} dcta;

typedef struct gstored { uint16_t e; uint32_t pc, lanes; } gstored;

typedef struct dorigin { uint32_t pc, tid; uint64_t cta; int space; uint64_t addr; int kind; } dorigin;

struct chk_def {
    chk_def_quick q;             /* shared maps and taint flags (sh_def, taint below point into it) */
    const bc_module *m;
    uint8_t rule[OP__COUNT], cc[OP__COUNT];
    uint32_t nslots;             /* register slots (per warp: nslots * 32) */
    uint32_t nthreads, local_size;
    int nwarps;
    uint64_t shared_size;
    dcta *ctas;                  /* per CTA slot */
    int nctas;
    dorigin *orig;
    uint32_t norig, caporig;
    chk_def_report report;
    void *ctx;
    int has_am;                  /* the module executes activemask: track groupings */
    chk_am_event *ev;            /* grouping events: an activemask, or a collective over such a mask */
    uint32_t nev, capev;
    gstored *st;                 /* lanes that stored a grouping-dependent value, per (event, store pc) */
    uint32_t nst, capst;
    chk_am_candidate cand;       /* the first grouping some of whose lanes never stored it */
};

/* ---- the rule table ------------------------------------------------------------------- */

static void rules(chk_def *D)
{
    for (int op = 0; op < OP__COUNT; op++) {
        switch (bc_op_fmt[op]) {
        case F_DA: case F_DAB: case F_DABC: D->rule[op] = DR_SMEAR; break;
        case F_LD: D->rule[op] = DR_LD; break;
        case F_ST: D->rule[op] = DR_ST; break;
        case F_ATOM: D->rule[op] = DR_MBAR; break;
        case F_SREG: D->rule[op] = DR_DEF; break;
        case F_MMA: D->rule[op] = DR_MMA; break;
        default: D->rule[op] = DR_NONE; break;
        }
    }
    static const struct { int op, rule; } r[] = {
        { OP_MOV, DR_MOV }, { OP_NOT_16, DR_BYTEWISE }, { OP_NOT_32, DR_BYTEWISE }, { OP_NOT_64, DR_BYTEWISE },
        { OP_NOT_PRED, DR_MOV }, { OP_XOR, DR_BYTEWISE }, { OP_LOP3, DR_BYTEWISE }, { OP_AND, DR_AND }, { OP_OR, DR_OR },
        { OP_PACK2, DR_PACK2 }, { OP_PACK4, DR_PACK4 }, { OP_UNPACK, DR_UNPACK }, { OP_CVT_ZX, DR_CVT_ZX },
        { OP_CVT_SX, DR_CVT_SX }, { OP_SELP, DR_SELP }, { OP_SLCT_S, DR_SLCT }, { OP_SLCT_F, DR_SLCT },
        { OP_SHL_16, DR_SHL }, { OP_SHL_32, DR_SHL }, { OP_SHL_64, DR_SHL }, { OP_SHR_U16, DR_SHR },
        { OP_SHR_U32, DR_SHR }, { OP_SHR_U64, DR_SHR }, { OP_BFE_U32, DR_BFE }, { OP_BFE_S32, DR_BFE },
        { OP_BFE_U64, DR_BFE }, { OP_BFE_S64, DR_BFE }, { OP_BFI_32, DR_BFI }, { OP_BFI_64, DR_BFI },
        { OP_PRMT, DR_PRMT }, { OP_SETP_BOOL, DR_SETP_BOOL }, { OP_ATOM, DR_ATOM }, { OP_CP_ASYNC, DR_CPASYNC },
        { OP_UNPACK, DR_UNPACK }, { OP_BRA, DR_BRA }, { OP_BRX, DR_BRX }, { OP_CALL, DR_CALL }, { OP_CALLI, DR_CALLI },
        { OP_CALL_BUILTIN, DR_CALLX }, { OP_CALL_FFI, DR_CALLX }, { OP_RET, DR_RET }, { OP_EXIT, DR_EXIT },
        { OP_TRAP, DR_EXIT }, { OP_SHFL, DR_SHFL }, { OP_VOTE_ALL, DR_VOTE }, { OP_VOTE_ANY, DR_VOTE },
        { OP_VOTE_UNI, DR_VOTE }, { OP_VOTE_BALLOT, DR_VOTE }, { OP_MATCH_ANY, DR_MATCH }, { OP_MATCH_ALL, DR_MATCH },
        { OP_REDUX, DR_REDUX }, { OP_ELECT, DR_ELECT }, { OP_WARPSYNC, DR_WARPSYNC }, { OP_ACTIVEMASK, DR_ACTIVEMASK },
        { OP_BAR, DR_BAR }, { OP_LDMATRIX, DR_MMA_MEM }, { OP_STMATRIX, DR_MMA_MEM }, { OP_WMMA_LOAD, DR_MMA_MEM },
        { OP_WMMA_STORE, DR_MMA_MEM }, { OP_MBAR_PENDING, DR_SMEAR },
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) D->rule[r[i].op] = (uint8_t)r[i].rule;
    static const struct { int op, cc; } c[] = {
        { OP_ADDCC_32, CC_OUT }, { OP_ADDC_32, CC_IN }, { OP_ADDCCC_32, CC_IN | CC_OUT },
        { OP_SUBCC_32, CC_OUT }, { OP_SUBC_32, CC_IN }, { OP_SUBCCC_32, CC_IN | CC_OUT },
        { OP_ADDCC_64, CC_OUT }, { OP_ADDC_64, CC_IN }, { OP_ADDCCC_64, CC_IN | CC_OUT },
        { OP_SUBCC_64, CC_OUT }, { OP_SUBC_64, CC_IN }, { OP_SUBCCC_64, CC_IN | CC_OUT },
        { OP_MADCC_32, CC_OUT }, { OP_MADC_32, CC_IN }, { OP_MADCCC_32, CC_IN | CC_OUT },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) D->cc[c[i].op] = (uint8_t)c[i].cc;
}

/* ---- lifetime ---------------------------------------------------------------------------- */

chk_def *chk_def_new(const bc_module *m, chk_def_report report, void *ctx)
{
    chk_def *D = calloc(1, sizeof *D);
    if (!D) abort();
    D->m = m;
    D->nslots = m->nslots;
    D->report = report;
    D->ctx = ctx;
    rules(D);
    for (uint32_t pc = 0; pc < m->ncode; pc++) D->has_am |= m->code[pc].op == OP_ACTIVEMASK;
    return D;
}

static void dcta_free(chk_def *D, dcta *c)
{
    if (c->w)
        for (int i = 0; i < D->nwarps; i++) {
            free(c->w[i].u);
            free(c->w[i].o);
            for (int l = 0; l < W32; l++) { free(c->w[i].stk[l].u); free(c->w[i].stk[l].o); }
            free(c->w[i].g);
            free(c->w[i].ge);
        }
    free(c->w);
    free(c->sh_def);
    if (c->loc_def) for (uint32_t t = 0; t < D->nthreads; t++) free(c->loc_def[t]);
    free(c->loc_def);
    free(c->okey);
    free(c->oval);
}

const chk_def_quick *chk_def_quick_of(const chk_def *D) { return &D->q; }

void chk_def_free(chk_def *D)
{
    if (!D) return;
    for (int i = 0; i < D->nctas; i++) dcta_free(D, &D->ctas[i]);
    free(D->ctas);
    free(D->q.sh_def);
    free(D->q.taint);
    free(D->orig);
    free(D->ev);
    free(D->st);
    free(D);
}

void chk_def_cta_begin(chk_def *D, vm_launch *L, vm_cta *cta)
{
    if (!D->ctas) {
        D->nctas = L->nres;
        D->ctas = calloc((size_t)D->nctas, sizeof *D->ctas);
        D->nthreads = L->nthreads;
        D->nwarps = L->nwarps;
        D->shared_size = L->shared_size;
        D->local_size = L->cfg.local_size;
        D->q.shared_size = D->shared_size;
        D->q.nwarps = D->nwarps;
        D->q.sh_def = calloc((size_t)D->nctas, sizeof *D->q.sh_def);
        D->q.taint = calloc((size_t)D->nctas * (size_t)D->nwarps + 1, sizeof *D->q.taint);
        if (!D->ctas || !D->q.sh_def || !D->q.taint) abort();
    }
    dcta *c = &D->ctas[cta->slot];
    size_t regs = (size_t)D->nslots * W32;
    if (!c->w) {
        c->w = calloc((size_t)D->nwarps, sizeof *c->w);
        c->sh_def = calloc(D->shared_size / 8 + 2, 1);
        c->loc_def = calloc(D->nthreads, sizeof *c->loc_def);
        if (!c->w || !c->sh_def || !c->loc_def) abort();
        D->q.sh_def[cta->slot] = c->sh_def;
        for (int i = 0; i < D->nwarps; i++) {
            c->w[i].taint = &D->q.taint[(size_t)cta->slot * (size_t)D->nwarps + (size_t)i];
            c->w[i].u = calloc(regs, 1);
            c->w[i].o = calloc(regs, sizeof *c->w[i].o);
            if (!c->w[i].u || !c->w[i].o) abort();
            if (D->has_am) {
                c->w[i].g = calloc(regs, 1);
                c->w[i].ge = calloc(regs, sizeof *c->w[i].ge);
                if (!c->w[i].g || !c->w[i].ge) abort();
            }
        }
        return;
    }
    for (int i = 0; i < D->nwarps; i++) {
        dwarp *dw = &c->w[i];
        if (*dw->taint) memset(dw->u, 0, regs);
        *dw->taint = 0;
        if (dw->gtainted) memset(dw->g, 0, regs);
        dw->gtainted = 0;
        for (int l = 0; l < W32; l++) dw->stk[l].n = 0;
    }
    memset(c->sh_def, 0, D->shared_size / 8 + 2);
    for (uint32_t t = 0; t < D->nthreads; t++)
        if (c->loc_def[t]) memset(c->loc_def[t], 0, D->local_size / 8 + 1);
    if (c->on) { memset(c->okey, 0, c->ocap * sizeof *c->okey); c->on = 0; }
}

/* ---- origins ------------------------------------------------------------------------------ */

enum { OK_UNWRITTEN, OK_SHFL };

/* An origin (deduplicated by pc and kind): index + 1, saturating. */
static uint16_t origin_new(chk_def *D, uint32_t pc, uint32_t tid, uint64_t cta, int space, uint64_t addr, int kind)
{
    for (uint32_t i = 0; i < D->norig; i++)
        if (D->orig[i].pc == pc && D->orig[i].kind == kind) return (uint16_t)(i + 1);
    if (D->norig >= ORIGIN_MAX) return ORIGIN_MAX;
    if (D->norig == D->caporig) {
        D->caporig = D->caporig ? D->caporig * 2 : 16;
        D->orig = realloc(D->orig, (size_t)D->caporig * sizeof *D->orig);
        if (!D->orig) abort();
    }
    D->orig[D->norig] = (dorigin){ pc, tid, cta, space, addr, kind };
    return (uint16_t)++D->norig;
}

/* Memory origins: key = space, thread (local), word. */
static uint64_t okey_of(int space, uint32_t tid, uint64_t word)
{
    return ((uint64_t)(space & 3) << 62 | (uint64_t)(tid & 0xffff) << 46 | (word & ((1ull << 46) - 1))) + 1;
}

static void omem_put(dcta *c, uint64_t key, uint16_t o)
{
    if (c->on * 2 >= c->ocap) {
        uint64_t *ok = c->okey;
        uint16_t *ov = c->oval;
        uint32_t oc = c->ocap;
        c->ocap = oc ? oc * 2 : 256;
        c->okey = calloc(c->ocap, sizeof *c->okey);
        c->oval = calloc(c->ocap, sizeof *c->oval);
        if (!c->okey || !c->oval) abort();
        c->on = 0;
        for (uint32_t i = 0; i < oc; i++) if (ok[i]) omem_put(c, ok[i], ov[i]);
        free(ok);
        free(ov);
    }
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (c->ocap - 1);
    while (c->okey[i] && c->okey[i] != key) i = (i + 1) & (c->ocap - 1);
    if (!c->okey[i]) { c->okey[i] = key; c->on++; }
    c->oval[i] = o;
}

static uint16_t omem_get(const dcta *c, uint64_t key)
{
    if (!c->ocap) return 0;
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (c->ocap - 1);
    while (c->okey[i]) {
        if (c->okey[i] == key) return c->oval[i];
        i = (i + 1) & (c->ocap - 1);
    }
    return 0;
}

/* ---- reporting ------------------------------------------------------------------------------ */

static void use(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, uint16_t o, const char *what)
{
    chk_origin org;
    memset(&org, 0, sizeof org);
    if (o && o <= D->norig) {
        const dorigin *x = &D->orig[o - 1];
        org.valid = 1;
        org.pc = x->pc;
        org.tid = x->tid;
        org.cta = x->cta;
        org.space = x->space;
        org.addr = x->addr;
        org.shfl = x->kind == OK_SHFL;
    }
    D->report(D->ctx, L, cta, w, lane, pc, what, &org);
}

/* ---- register shadows ------------------------------------------------------------------------ */

#define U(dw, slot, l) ((dw)->u[(slot) + (uint32_t)(l)])
#define O(dw, slot, l) ((dw)->o[(slot) + (uint32_t)(l)])

static inline void set(dwarp *dw, uint32_t slot, int l, uint8_t u, uint16_t o)
{
    U(dw, slot, l) = u;
    O(dw, slot, l) = o;
    *dw->taint |= u != 0;
}

/* Reports lane l's use of `slot` when any byte in `bytes` of it is undefined. */
static inline int check_use(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, dwarp *dw, int l, uint32_t slot,
                            uint8_t bytes, uint32_t pc, const char *what)
{
    if (!(U(dw, slot, l) & bytes)) return 0;
    use(D, L, cta, w, l, pc, O(dw, slot, l), what);
    return 1;
}

static inline uint8_t smear(uint8_t u) { return u ? 0xff : 0; }

/* The bytes of a value undefined after shifting it left (right) by n bits. */
static uint8_t shift_mask(uint8_t u, uint32_t n, int left)
{
    uint8_t r = 0;
    for (int b = 0; b < 8; b++) {
        if (!(u & (1u << b))) continue;
        int lo = left ? 8 * b + (int)n : 8 * b - (int)n, hi = lo + 7;
        for (int k = lo < 0 ? 0 : lo / 8; k <= hi / 8 && k < 8; k++) if (hi >= 0) r |= (uint8_t)(1u << k);
    }
    return r;
}

/* The bytes covering bits [pos, pos + len) of a 64-bit value. */
static uint8_t field_bytes(uint32_t pos, uint32_t len)
{
    if (!len || pos >= 64) return 0;
    uint32_t end = pos + len > 64 ? 64 : pos + len;
    uint8_t r = 0;
    for (uint32_t b = pos / 8; b <= (end - 1) / 8; b++) r |= (uint8_t)(1u << b);
    return r;
}

/* Lane l's results of one pure instruction (sources undefined somewhere). */
static void propagate(chk_def *D, const bc_insn *I, dwarp *dw, const uint64_t *R, int l)
{
    const bc_module *m = D->m;
    uint32_t a = I->a, b = I->b, c = I->c, e = I->e;
    uint8_t ua = U(dw, a, l), ub = U(dw, b, l), uc = U(dw, c, l), ud = 0;
    uint16_t o = ua ? O(dw, a, l) : ub ? O(dw, b, l) : uc ? O(dw, c, l) : 0;
    int fmt = bc_op_fmt[I->op];
    uint8_t any = ua | (fmt != F_DA ? ub : 0) | (fmt == F_DABC ? uc : 0);
    uint64_t va = R[a + (uint32_t)l], vb = R[b + (uint32_t)l], vc = R[c + (uint32_t)l];
    switch (D->rule[I->op]) {
    case DR_DEF: ud = 0; break;
    case DR_MOV: ud = ua; break;
    case DR_BYTEWISE: ud = ua | (fmt != F_DA ? ub : 0) | (fmt == F_DABC ? uc : 0); break;
    case DR_AND: case DR_OR: {
        /* a defined 0 (and) or 1 (or) byte decides the result byte */
        int isand = D->rule[I->op] == DR_AND;
        for (int k = 0; k < 8; k++) {
            uint8_t bit = (uint8_t)(1u << k), xa = (uint8_t)(va >> 8 * k), xb = (uint8_t)(vb >> 8 * k);
            int da = !(ua & bit), db = !(ub & bit);
            if (da && db) continue;
            if (isand ? ((da && xa == 0) || (db && xb == 0)) : ((da && xa == 0xff) || (db && xb == 0xff))) continue;
            ud |= bit;
        }
        if (!(ud & ua) && (ud & ub)) o = O(dw, b, l);
        break;
    }
    case DR_PACK2: {
        uint32_t s = (uint32_t)I->imm;
        uint8_t f = field_bytes(0, s);
        if (s % 8) ud = (uint8_t)(smear((ua | ub) & f) & field_bytes(0, 2 * s));
        else ud = (uint8_t)((ua & f) | (ub & f) << (s / 8));
        if (!(ua & f) && (ub & f)) o = O(dw, b, l);
        break;
    }
    case DR_PACK4: {
        uint8_t ue = U(dw, e, l);
        uint32_t s = (uint32_t)I->imm;
        const uint8_t us[4] = { ua, ub, uc, ue };
        for (int k = 0; k < 4; k++) if (us[k] & field_bytes(0, s)) ud |= field_bytes((uint32_t)k * s, s);
        if (!o && ue) o = O(dw, e, l);
        break;
    }
    case DR_CVT_ZX: ud = (uint8_t)(ua & field_bytes(0, (uint32_t)I->imm)); break;
    case DR_CVT_SX: {
        uint32_t bits = (uint32_t)I->imm;
        uint8_t f = field_bytes(0, bits);
        ud = ua & f;
        if (bits && (ua & field_bytes(bits - 1, 1))) ud = 0xff;
        ud &= field_bytes(0, 8u * I->m1);
        break;
    }
    case DR_SELP: case DR_SLCT: {
        int sel = D->rule[I->op] == DR_SELP ? (int)(vc & 1) : (int)(!((vc >> 31) & 1));
        uint8_t selu = D->rule[I->op] == DR_SELP ? (uc & 1) : (uc & 8);
        if (selu) { ud = 0xff; o = O(dw, c, l); }
        else { ud = sel ? ua : ub; o = sel ? O(dw, a, l) : O(dw, b, l); }
        break;
    }
    case DR_SHL: case DR_SHR: {
        int bits = I->op == OP_SHL_16 || I->op == OP_SHR_U16 ? 16 : I->op == OP_SHL_32 || I->op == OP_SHR_U32 ? 32 : 64;
        if (ub) ud = 0xff;
        else ud = shift_mask(ua, (uint32_t)(vb > 64 ? 64 : vb), D->rule[I->op] == DR_SHL);
        ud &= field_bytes(0, (uint32_t)bits);
        break;
    }
    case DR_BFE:
        if (ub || uc) ud = 0xff;
        else ud = (ua & field_bytes((uint32_t)(vb & 0xff), (uint32_t)(vc & 0xff))) ? 0xff : 0;
        break;
    case DR_BFI: {
        /* b with bits [pos, pos + len) replaced by the low len bits of a */
        uint8_t ue = U(dw, e, l);
        if (uc || ue) { ud = 0xff; o = uc ? O(dw, c, l) : O(dw, e, l); break; }
        uint32_t pos = (uint32_t)(vc & 0xff), len = (uint32_t)(R[e + (uint32_t)l] & 0xff);
        uint8_t f = field_bytes(pos, len);
        ud = (uint8_t)(ub & ~f);
        if (pos % 8 || (pos + len) % 8) ud |= ub & f;        /* bytes holding bits of both */
        if (ua & field_bytes(0, len)) ud |= f;
        if (!(ub & ~f) && (ua & field_bytes(0, len))) o = O(dw, a, l);
        break;
    }
    case DR_PRMT:
        if (uc || I->m1) { ud = smear(any); break; }
        for (int k = 0; k < 4; k++) {
            uint32_t s = (uint32_t)(vc >> (4 * k)) & 7;
            uint8_t src = s < 4 ? (uint8_t)(ua >> s) : (uint8_t)(ub >> (s - 4));
            if (src & 1) ud |= (uint8_t)(1u << k);
        }
        break;
    case DR_SETP_BOOL: {
        /* d = a OP c (and e = !a OP c): a defined 0 decides and, a defined 1 decides or */
        int isand = I->m1 == BC_BOOL_AND, isor = I->m1 == BC_BOOL_OR;
        int da = !(ua & 1), dc = !(uc & 1), xa = (int)(va & 1), xc = (int)(vc & 1);
        int u1 = !(da && dc), u2 = u1;
        if (u1 && isand) { u1 = !((da && !xa) || (dc && !xc)); u2 = !((da && xa) || (dc && !xc)); }
        if (u1 && isor) { u1 = !((da && xa) || (dc && xc)); u2 = !((da && !xa) || (dc && xc)); }
        set(dw, I->d, l, u1 ? 0xff : 0, ua ? O(dw, a, l) : O(dw, c, l));
        if (I->flags & BC_IF_HAS_E) set(dw, I->e, l, u2 ? 0xff : 0, ua ? O(dw, a, l) : O(dw, c, l));
        return;
    }
    case DR_UNPACK: {
        const uint32_t *dl = &m->extra[I->x];
        uint32_t s = (uint32_t)I->imm;
        for (int k = 0; k < I->n; k++) {
            uint8_t f = field_bytes((uint32_t)k * s, s), x = ua & f;
            uint8_t r = x ? (s % 8 ? field_bytes(0, s) : (uint8_t)(x >> (k * s / 8))) : 0;
            set(dw, dl[k], l, r, O(dw, a, l));
        }
        return;
    }
    default: ud = smear(any); break;
    }
    if (D->cc[I->op] & CC_IN) { uint8_t ucc = U(dw, m->slot_cc, l); if (ucc) { ud = 0xff; if (!o) o = O(dw, m->slot_cc, l); } }
    set(dw, I->d, l, ud, ud ? o : 0);
    if (I->op == OP_SETP_F16X2 && (I->flags & BC_IF_HAS_E)) set(dw, I->e, l, ud, ud ? o : 0);
    if (D->cc[I->op] & CC_OUT) set(dw, m->slot_cc, l, smear(ud), ud ? o : 0);
}

/* ---- calls ------------------------------------------------------------------------------------ */

static uint8_t *loc_map(chk_def *D, dcta *c, uint32_t t)
{
    if (!c->loc_def[t]) {
        c->loc_def[t] = calloc(D->local_size / 8 + 1, 1);
        if (!c->loc_def[t]) abort();
    }
    return c->loc_def[t];
}

static inline int bit_get(const uint8_t *bm, uint64_t a) { return (bm[a >> 3] >> (a & 7)) & 1; }
static inline void bit_put(uint8_t *bm, uint64_t a, int v)
{
    if (v) bm[a >> 3] |= (uint8_t)(1u << (a & 7));
    else bm[a >> 3] &= (uint8_t)~(1u << (a & 7));
}

/* Copies the definedness (and origins) of n local bytes of thread t. */
static void loc_copy(chk_def *D, dcta *c, uint32_t t, uint64_t dst, uint64_t src, uint32_t n)
{
    if (dst + n > D->local_size || src + n > D->local_size) return;
    uint8_t *bm = loc_map(D, c, t);
    uint8_t tmp[256];
    uint16_t org[64];
    if (n > sizeof tmp) n = sizeof tmp;
    for (uint32_t i = 0; i < n; i++) tmp[i] = (uint8_t)bit_get(bm, src + i);
    for (uint32_t i = 0; i < n; i += 4) org[i / 4] = omem_get(c, okey_of(BC_SP_LOCAL, t, (src + i) >> 2));
    for (uint32_t i = 0; i < n; i++) {
        bit_put(bm, dst + i, tmp[i]);
        if (!tmp[i] && org[i / 4]) omem_put(c, okey_of(BC_SP_LOCAL, t, (dst + i) >> 2), org[i / 4]);
    }
}

static void push_regs(chk_def *D, dwarp *dw, int l, const bc_func *f)
{
    dstack *s = &dw->stk[l];
    if (s->n + f->nslots > s->cap) {
        s->cap = (s->n + f->nslots) * 2 + 16;
        s->u = realloc(s->u, s->cap);
        s->o = realloc(s->o, (size_t)s->cap * sizeof *s->o);
        if (!s->u || !s->o) abort();
    }
    for (uint32_t k = 0; k < f->nslots; k++) {
        uint32_t slot = (f->slot_base + k) * W32;
        s->u[s->n + k] = U(dw, slot, l);
        s->o[s->n + k] = O(dw, slot, l);
    }
    s->n += f->nslots;
    (void)D;
}

static void pop_regs(dwarp *dw, int l, const bc_func *f)
{
    dstack *s = &dw->stk[l];
    if (s->n < f->nslots) return;
    s->n -= f->nslots;
    for (uint32_t k = 0; k < f->nslots; k++) set(dw, (f->slot_base + k) * W32, l, s->u[s->n + k], s->o[s->n + k]);
}

/* A call of function fidx by lane l: the arguments' definedness goes with
 * them into the callee's frame, the callee's registers are saved. */
static void call_enter(chk_def *D, dcta *c, dwarp *dw, vm_warp *w, int l, uint32_t t, const bc_insn *I, int fidx)
{
    const bc_module *m = D->m;
    if (fidx < 0 || fidx >= m->nfuncs) return;
    const bc_func *f = &m->funcs[fidx];
    const uint32_t *x = &m->extra[I->x];
    if (f->kind != BC_FN_DEFINED || x[0] != (uint32_t)f->nparams || x[1] != (uint32_t)f->nrets) return;
    uint64_t fp = w->R[m->slot_fp + (uint32_t)l], nfp = fp + x[2];
    for (uint32_t k = 0; k < x[0]; k++) {
        uint32_t so = x[3 + 3 * k], sz = x[5 + 3 * k];
        uint32_t d = x[4 + 3 * k] == UINT32_MAX ? (uint32_t)f->params[k].offset : x[4 + 3 * k];
        if (sz > (uint32_t)f->params[k].size) sz = (uint32_t)f->params[k].size;
        loc_copy(D, c, t, nfp + d, fp + so, sz);
    }
    push_regs(D, dw, l, f);
}

/* A return of lane l (the VM's call stack still holds the frame). */
static void call_return(chk_def *D, dcta *c, dwarp *dw, vm_warp *w, int l, uint32_t t)
{
    const bc_module *m = D->m;
    const struct vm_stack *s = &w->stack[l];
    if (!s->depth || s->n < 3) return;
    int fidx = (int)s->v[s->n - 1];
    uint64_t fp = s->v[s->n - 2];
    uint32_t cpc = (uint32_t)s->v[s->n - 3];
    if (fidx < 0 || fidx >= m->nfuncs || cpc >= m->ncode) return;
    const bc_func *f = &m->funcs[fidx];
    const uint32_t *x = &m->extra[m->code[cpc].x];
    uint64_t cfp = w->R[m->slot_fp + (uint32_t)l];
    for (uint32_t k = 0; k < x[1] && k < (uint32_t)f->nrets; k++) {
        uint32_t j = x[0] + k, d = x[3 + 3 * j], sz = x[5 + 3 * j];
        uint32_t so = x[4 + 3 * j] == UINT32_MAX ? (uint32_t)f->rets[k].offset : x[4 + 3 * j];
        if (sz > (uint32_t)f->rets[k].size) sz = (uint32_t)f->rets[k].size;
        loc_copy(D, c, t, fp + d, cfp + so, sz);
    }
    pop_regs(dw, l, f);
}

/* printf and host calls read their arguments from the caller's frame (and
 * printf the argument buffer it points to): every byte they read must be
 * defined. */
typedef struct pf_ctx { chk_def *D; dcta *c; vm_launch *L; vm_cta *cta; vm_warp *w; int l; uint32_t t, pc; int bad; } pf_ctx;

static int pf_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    pf_ctx *p = ctx;
    uint8_t *h = vm_xlate(p->L, p->cta, p->w, p->l, BC_SP_GENERIC, addr, n, 0);
    if (!h) return -1;
    memcpy(dst, h, n);
    int sp;
    uint64_t ra;
    vm_resolve(p->L, BC_SP_GENERIC, addr, &sp, &ra);
    if (sp == BC_SP_LOCAL && ra + n <= p->D->local_size && !p->bad) {
        const uint8_t *bm = loc_map(p->D, p->c, p->t);
        for (size_t i = 0; i < n; i++)
            if (!bit_get(bm, ra + i)) {
                p->bad = 1;
                uint16_t o = omem_get(p->c, okey_of(BC_SP_LOCAL, p->t, (ra + i) >> 2));
                if (!o) o = origin_new(p->D, p->pc, p->t, p->cta->linear, BC_SP_LOCAL, ra + i, OK_UNWRITTEN);
                use(p->D, p->L, p->cta, p->w, p->l, p->pc, o, "as a printf argument");
                break;
            }
    }
    return 0;
}

static void host_args(chk_def *D, dcta *c, vm_launch *L, vm_cta *cta, vm_warp *w, int l, uint32_t t, uint32_t pc,
                      const bc_insn *I)
{
    const bc_module *m = D->m;
    const uint32_t *x = &m->extra[I->x];
    uint64_t fp = w->R[m->slot_fp + (uint32_t)l];
    const uint8_t *bm = loc_map(D, c, t);
    int printf_call = I->op == OP_CALL_BUILTIN && m->funcs[I->imm].builtin == BC_BUILTIN_VPRINTF;
    uint64_t arg[2] = { 0, 0 };
    for (uint32_t k = 0; k < x[0]; k++) {
        uint32_t off = x[3 + 3 * k], sz = x[5 + 3 * k];
        if (fp + off + sz > D->local_size) return;
        for (uint32_t i = 0; i < sz; i++)
            if (!bit_get(bm, fp + off + i)) {
                uint16_t o = omem_get(c, okey_of(BC_SP_LOCAL, t, (fp + off + i) >> 2));
                if (!o) o = origin_new(D, pc, t, cta->linear, BC_SP_LOCAL, fp + off + i, OK_UNWRITTEN);
                use(D, L, cta, w, l, pc, o, printf_call ? "as a printf argument" : "as a host-call argument");
                return;
            }
        if (k < 2) memcpy(&arg[k], w->local + (uint64_t)l * L->local_stride + fp + off, sz > 8 ? 8 : sz);
    }
    if (!printf_call) return;
    pf_ctx p = { D, c, L, cta, w, l, t, pc, 0 };
    rt_strbuf out;
    char err[256];
    rt_strbuf_init(&out);
    rt_printf_format(pf_read, &p, arg[0], arg[1], &out, err, sizeof err);
    rt_strbuf_free(&out);
}

/* ---- __activemask() groupings ------------------------------------------------------------------ */

#define G(dw, slot, l) ((dw)->g[(slot) + (uint32_t)(l)])
#define GE(dw, slot, l) ((dw)->ge[(slot) + (uint32_t)(l)])

static uint16_t event_new(chk_def *D, uint32_t am_pc, uint32_t coll_pc, uint32_t group)
{
    for (uint32_t i = D->nev; i-- > 0;)
        if (D->ev[i].am_pc == am_pc && D->ev[i].coll_pc == coll_pc && D->ev[i].group == group) return (uint16_t)(i + 1);
    if (D->nev >= ORIGIN_MAX) return ORIGIN_MAX;
    if (D->nev == D->capev) {
        D->capev = D->capev ? D->capev * 2 : 16;
        D->ev = realloc(D->ev, (size_t)D->capev * sizeof *D->ev);
        if (!D->ev) abort();
    }
    D->ev[D->nev] = (chk_am_event){ am_pc, coll_pc, group };
    return (uint16_t)++D->nev;
}

static inline void gset(dwarp *dw, uint32_t slot, int l, uint8_t g, uint16_t e)
{
    G(dw, slot, l) = g;
    GE(dw, slot, l) = g ? e : 0;
    dw->gtainted |= g;
}

/* A pure instruction: its results depend on a grouping when a source does. */
static void gpropagate(chk_def *D, const bc_insn *I, dwarp *dw, int l)
{
    const bc_module *m = D->m;
    int fmt = bc_op_fmt[I->op];
    uint32_t src[6];
    int n = 0;
    if (fmt == F_DA || fmt == F_DAB || fmt == F_DABC || I->op == OP_UNPACK) src[n++] = I->a;
    if (fmt == F_DAB || fmt == F_DABC) src[n++] = I->b;
    if (fmt == F_DABC) src[n++] = I->c;
    if (I->op == OP_PACK4 || I->op == OP_BFI_32 || I->op == OP_BFI_64) src[n++] = I->e;
    if (D->cc[I->op] & CC_IN) src[n++] = m->slot_cc;
    uint8_t g = 0;
    uint16_t e = 0;
    for (int k = 0; k < n && !g; k++) if (G(dw, src[k], l)) { g = 1; e = GE(dw, src[k], l); }
    if (I->op == OP_UNPACK) {
        for (int k = 0; k < I->n; k++) gset(dw, m->extra[I->x + (uint32_t)k], l, g, e);
        return;
    }
    if (fmt == F_SREG) g = 0;
    gset(dw, I->d, l, g, e);
    if ((I->flags & BC_IF_HAS_E) && (I->op == OP_SETP_BOOL || I->op == OP_SETP_F16X2)) gset(dw, I->e, l, g, e);
    if (D->cc[I->op] & CC_OUT) gset(dw, m->slot_cc, l, g, e);
}

/* A plain store to global memory by lanes m: the lanes that store a
 * grouping-dependent value are collected per (grouping, store); a grouping
 * some of whose lanes never store it is a candidate (chk_def_am_candidate). */
static void gstore(chk_def *D, const bc_insn *I, dwarp *dw, uint32_t m, uint32_t pc)
{
    const uint32_t *sl = I->n > 1 ? &D->m->extra[I->x] : &I->b;
    for (int k = 0; k < I->n; k++) {
        uint32_t left = 0;
        for (uint32_t mm = m; mm; mm &= mm - 1) if (G(dw, sl[k], __builtin_ctz(mm))) left |= BIT(__builtin_ctz(mm));
        while (left) {
            uint16_t e = GE(dw, sl[k], __builtin_ctz(left));
            uint32_t same = 0;
            for (uint32_t mm = left; mm; mm &= mm - 1)
                if (GE(dw, sl[k], __builtin_ctz(mm)) == e) same |= BIT(__builtin_ctz(mm));
            left &= ~same;
            if (!e || e > D->nev) continue;
            uint32_t i = 0;
            while (i < D->nst && (D->st[i].e != e || D->st[i].pc != pc)) i++;
            if (i == D->nst) {
                if (D->nst == D->capst) {
                    D->capst = D->capst ? D->capst * 2 : 16;
                    D->st = realloc(D->st, (size_t)D->capst * sizeof *D->st);
                    if (!D->st) abort();
                }
                D->st[D->nst++] = (gstored){ e, pc, 0 };
            }
            D->st[i].lanes |= same;
        }
    }
}

const chk_am_candidate *chk_def_am_candidate(chk_def *D)
{
    for (uint32_t i = 0; i < D->nst && !D->cand.valid; i++) {
        const chk_am_event *x = &D->ev[D->st[i].e - 1];
        if ((D->st[i].lanes & x->group) != x->group)
            D->cand = (chk_am_candidate){ 1, x->am_pc, x->coll_pc, D->st[i].pc, D->st[i].lanes & x->group, x->group };
    }
    return &D->cand;
}

/* Before the instruction: groupings through registers. */
static void gstep(chk_def *D, vm_launch *L, dwarp *dw, const uint64_t *R, const bc_insn *I, int rule, uint32_t lanes,
                  uint32_t pc)
{
    if (I->op == OP_ACTIVEMASK) {
        uint16_t e = event_new(D, pc, UINT32_MAX, lanes);
        for (uint32_t mm = lanes; mm; mm &= mm - 1) gset(dw, I->d, __builtin_ctz(mm), 1, e);
        return;
    }
    if (!dw->gtainted) return;
    if (rule == DR_ST) {
        if (I->op != OP_ST_GLOBAL && I->op != OP_ST_GENERIC) return;
        uint32_t glob = 0;
        for (uint32_t mm = lanes; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm), sp = BC_SP_GLOBAL;
            uint64_t ra;
            if (I->op == OP_ST_GENERIC) vm_resolve(L, BC_SP_GENERIC, R[I->a + (uint32_t)l] + (uint64_t)I->imm, &sp, &ra);
            if (sp == BC_SP_GLOBAL) glob |= BIT(l);
        }
        if (glob) gstore(D, I, dw, glob, pc);
        return;
    }
    if (rule == DR_LD)
        for (uint32_t mm = lanes; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            const uint32_t *dl = I->n > 1 ? &D->m->extra[I->x] : &I->d;
            for (int k = 0; k < I->n; k++) gset(dw, dl[k], l, 0, 0);
        }
    if (rule >= DR_EFFECTS || rule == DR_NONE) return;
    for (uint32_t mm = lanes; mm; mm &= mm - 1) gpropagate(D, I, dw, __builtin_ctz(mm));
}

/* A collective completed for lanes P: a result over a grouping-dependent
 * mask depends on the grouping (a new event); one over grouping-dependent
 * operands inherits theirs. */
static void gcoll(chk_def *D, vm_launch *L, dwarp *dw, vm_warp *w, uint32_t P)
{
    uint16_t data_e = 0;
    for (uint32_t mm = P; mm && !data_e; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        const bc_insn *I = &L->code[w->pc[l] - 1];
        if (bc_op_fmt[I->op] == F_COLL && I->op != OP_WARPSYNC && I->op != OP_ELECT && G(dw, I->a, l)) data_e = GE(dw, I->a, l);
    }
    for (uint32_t mm = P; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        const bc_insn *I = &L->code[w->pc[l] - 1];
        if (bc_op_fmt[I->op] != F_COLL || I->op == OP_WARPSYNC) continue;
        uint8_t g = 0;
        uint16_t e = 0;
        if (G(dw, I->x, l)) {
            uint16_t me = GE(dw, I->x, l);
            uint32_t am = me && me <= D->nev ? D->ev[me - 1].am_pc : UINT32_MAX;
            g = 1;
            e = event_new(D, am, w->pc[l] - 1, P);
        } else if (data_e) { g = 1; e = data_e; }
        gset(dw, I->d, l, g, e);
        if (I->flags & BC_IF_HAS_E) gset(dw, I->e, l, g, e);
    }
}

/* ---- the step hook ---------------------------------------------------------------------------- */

static const char *const use_guard = "in a branch decision (the guard of an instruction with effects)";

void chk_def_step(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc)
{
    dcta *c = &D->ctas[cta->slot];
    dwarp *dw = &c->w[w->id];
    const bc_insn *I = &L->code[pc];
    int rule = D->rule[I->op];
    const uint64_t *R = w->R;
    uint32_t group = L->group;
    if (rule == DR_SHFL)
        for (uint32_t mm = lanes; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            dw->shfl_b[l] = (uint32_t)R[I->b + (uint32_t)l];
            dw->shfl_c[l] = (uint32_t)R[I->c + (uint32_t)l];
        }
    if (rule == DR_CALL || rule == DR_CALLI || rule == DR_RET || rule == DR_CALLX) {
        for (uint32_t mm = lanes; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t t = (uint32_t)w->id * W32 + (uint32_t)l;
            if (t >= D->nthreads) continue;
            if (rule == DR_CALLI) {
                if (*dw->taint && check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as an indirect call target")) continue;
                uint64_t fa = R[I->a + (uint32_t)l] - BC_FUNC_ADDR_BASE;
                call_enter(D, c, dw, w, l, t, I, fa < (uint64_t)D->m->nfuncs ? (int)fa : -1);
            } else if (rule == DR_CALL) call_enter(D, c, dw, w, l, t, I, (int)I->imm);
            else if (rule == DR_RET) call_return(D, c, dw, w, l, t);
            else host_args(D, c, L, cta, w, l, t, pc, I);
        }
    }
    if (D->has_am) gstep(D, L, dw, R, I, rule, lanes, pc);
    if (!*dw->taint) return;
    /* the guard */
    uint32_t ug = 0;
    if (I->guard != BC_NO_GUARD)
        for (uint32_t mm = group; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            if (U(dw, I->guard, l) & 1) ug |= BIT(l);
        }
    if (ug && rule >= DR_EFFECTS) {
        for (uint32_t mm = ug; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            use(D, L, cta, w, l, pc, O(dw, I->guard, l), use_guard);
        }
        lanes &= ~ug;
    }
    if (rule < DR_EFFECTS) {
        if (rule == DR_NONE) return;
        /* pure: lanes whose guard is undefined get an undefined result either way */
        for (uint32_t mm = lanes & ~ug; mm; mm &= mm - 1) propagate(D, I, dw, R, __builtin_ctz(mm));
        for (uint32_t mm = ug; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            set(dw, I->d, l, 0xff, O(dw, I->guard, l));
            if (rule == DR_UNPACK)
                for (int k = 0; k < I->n; k++) set(dw, D->m->extra[I->x + (uint32_t)k], l, 0xff, O(dw, I->guard, l));
        }
        return;
    }
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        switch (rule) {
        case DR_LD: {
            if (check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as an address")) break;
            const uint32_t *dl = I->n > 1 ? &D->m->extra[I->x] : &I->d;
            for (int k = 0; k < I->n; k++) set(dw, dl[k], l, 0, 0);   /* the access hook fills in shared/local */
            break;
        }
        case DR_ST: case DR_MMA_MEM:
            check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as an address");
            if (rule == DR_MMA_MEM && I->op != OP_STMATRIX && I->op != OP_WMMA_STORE) {
                const uint32_t *ol = &D->m->extra[I->x];
                for (uint32_t k = 0; k < ol[0]; k++) set(dw, ol[4 + k], l, 0, 0);
            }
            break;
        case DR_ATOM:
            if (check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as an address")) break;
            if (check_use(D, L, cta, w, dw, l, I->b, 0xff, pc, "as an atomic operand")) break;
            if (I->m1 == BC_RED_CAS && check_use(D, L, cta, w, dw, l, I->c, 0xff, pc, "as an atomic operand")) break;
            if (I->n) set(dw, I->d, l, 0, 0);
            break;
        case DR_CPASYNC:
            if (check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as an address")) break;
            if (check_use(D, L, cta, w, dw, l, I->b, 0xff, pc, "as an address")) break;
            check_use(D, L, cta, w, dw, l, I->c, 0xff, pc, "as a copy size");
            break;
        case DR_MBAR:
            if (check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as an address")) break;
            set(dw, I->d, l, 0, 0);
            break;
        case DR_BRX: check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "in a branch decision (brx.idx index)"); break;
        case DR_SHFL:
            if (check_use(D, L, cta, w, dw, l, I->x, 0xff, pc, "as a collective's membermask")) break;
            if (check_use(D, L, cta, w, dw, l, I->b, 0x0f, pc, "as a shuffle's source lane")) break;
            check_use(D, L, cta, w, dw, l, I->c, 0x0f, pc, "as a shuffle's clamp");
            break;
        case DR_VOTE: case DR_MATCH: case DR_REDUX: case DR_ELECT: case DR_WARPSYNC:
            if (check_use(D, L, cta, w, dw, l, I->x, 0xff, pc, "as a collective's membermask")) break;
            if (rule != DR_ELECT && rule != DR_WARPSYNC)
                check_use(D, L, cta, w, dw, l, I->a, rule == DR_VOTE ? 1 : 0xff, pc, "as a collective operand");
            if (rule != DR_WARPSYNC) {
                set(dw, I->d, l, 0, 0);
                if (I->flags & BC_IF_HAS_E) set(dw, I->e, l, 0, 0);
            }
            break;
        case DR_BAR:
            if (check_use(D, L, cta, w, dw, l, I->a, 0xff, pc, "as a barrier id")) break;
            if (I->n && check_use(D, L, cta, w, dw, l, I->b, 0xff, pc, "as a barrier thread count")) break;
            if (I->m1 >= 2) { check_use(D, L, cta, w, dw, l, I->c, 1, pc, "as a barrier reduction operand"); set(dw, I->d, l, 0, 0); }
            break;
        case DR_MMA: {
            const uint32_t *ol = &D->m->extra[I->x];
            uint32_t nsrc = ol[1] + ol[2] + ol[3];
            for (uint32_t k = 0; k < nsrc; k++)
                if (check_use(D, L, cta, w, dw, l, ol[4 + ol[0] + k], 0xff, pc, "as a matrix instruction operand")) break;
            for (uint32_t k = 0; k < ol[0]; k++) set(dw, ol[4 + k], l, 0, 0);
            break;
        }
        case DR_ACTIVEMASK: set(dw, I->d, l, 0, 0); break;
        default: break;
        }
    }
}

/* ---- memory ------------------------------------------------------------------------------------ */

void chk_def_access(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, int space, uint64_t addr,
                    int size, int flags)
{
    if (space != BC_SP_SHARED && space != BC_SP_LOCAL && space != BC_SP_GLOBAL) return;
    dcta *c = &D->ctas[cta->slot];
    dwarp *dw = &c->w[w->id];
    const bc_insn *I = &L->code[pc];
    uint32_t t = (uint32_t)w->id * W32 + (uint32_t)lane;
    int isld = I->op >= OP_LD_GLOBAL && I->op <= OP_LD_GENERIC, isst = I->op >= OP_ST_GLOBAL && I->op <= OP_ST_GENERIC;
    if (space == BC_SP_GLOBAL) {
        /* a store of an undefined value to global memory is a use */
        if (!isst || !*dw->taint) return;
        const uint32_t *sl = I->n > 1 ? &D->m->extra[I->x] : &I->b;
        for (int k = 0; k < I->n; k++)
            if (check_use(D, L, cta, w, dw, lane, sl[k], (uint8_t)((1u << I->m1) - 1), pc, "in a store to global memory"))
                return;
        return;
    }
    uint64_t lim = space == BC_SP_SHARED ? D->shared_size : D->local_size;
    if (t >= D->nthreads || addr + (uint64_t)size > lim || size <= 0) return;
    uint8_t *bm = space == BC_SP_SHARED ? c->sh_def : loc_map(D, c, t);
    uint32_t ot = space == BC_SP_SHARED ? 0 : t;
    if (!*dw->taint && size <= 8 && (addr & 7) + (uint64_t)size <= 8) {
        /* the common case: a clean warp, bytes within one byte of the map */
        uint8_t m = (uint8_t)(((1u << size) - 1) << (addr & 7));
        if ((flags & VM_ACC_WRITE) && !((flags & VM_ACC_READ) && isld)) { bm[addr >> 3] |= m; return; }
        if ((flags & VM_ACC_READ) && !(flags & VM_ACC_WRITE) && (bm[addr >> 3] & m) == m) return;
    }
    if ((flags & VM_ACC_READ) && isld) {
        const uint32_t *dl = I->n > 1 ? &D->m->extra[I->x] : &I->d;
        uint32_t sz = I->m1;
        for (int k = 0; k < I->n; k++) {
            uint8_t u = 0;
            uint16_t o = 0;
            for (uint32_t i = 0; i < sz && i < 8; i++) {
                uint64_t a = addr + (uint64_t)k * sz + i;
                if (bit_get(bm, a)) continue;
                u |= (uint8_t)(1u << i);
                if (!o) o = omem_get(c, okey_of(space, ot, a >> 2));
                if (!o) o = origin_new(D, pc, t, cta->linear, space, a, OK_UNWRITTEN);
            }
            if (!u && !*dw->taint) continue;
            if (u && I->m2 && (u & (1u << (sz - 1)))) u = 0xff;     /* sign extension of an undefined top byte */
            u &= (uint8_t)(I->m3 >= 8 ? 0xff : (1u << I->m3) - 1);
            set(dw, dl[k], lane, u, u ? o : 0);
        }
    }
    if (!(flags & VM_ACC_WRITE)) return;
    if (!isst || !*dw->taint) {                     /* defined bytes (atomics and copies write defined values) */
        for (int i = 0; i < size; i++) bit_put(bm, addr + (uint64_t)i, 1);
        return;
    }
    const uint32_t *sl = I->n > 1 ? &D->m->extra[I->x] : &I->b;
    uint32_t sz = I->m1;
    for (int k = 0; k < I->n; k++)
        for (uint32_t i = 0; i < sz; i++) {
            uint64_t a = addr + (uint64_t)k * sz + i;
            int undef = i < 8 && (U(dw, sl[k], lane) >> i) & 1;
            bit_put(bm, a, !undef);
            if (undef) omem_put(c, okey_of(space, ot, a >> 2), O(dw, sl[k], lane));
        }
}

/* ---- collectives ---------------------------------------------------------------------------------- */

void chk_def_coll(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t P)
{
    dcta *c = &D->ctas[cta->slot];
    dwarp *dw = &c->w[w->id];
    if (D->has_am) gcoll(D, L, dw, w, P);
    uint8_t nu[W32];
    uint16_t no[W32];
    uint32_t out = 0;
    for (uint32_t mm = P; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        const bc_insn *I = &L->code[w->pc[l] - 1];
        if (I->op != OP_SHFL) return;
        uint32_t off = dw->shfl_b[l] & 31, clampv = dw->shfl_c[l] & 31, seg = (dw->shfl_c[l] >> 8) & 31;
        uint32_t first = (uint32_t)l & seg, bound = first | (clampv & ~seg);
        int j, ok;
        switch (I->m1) {
        case BC_SHFL_UP: j = l - (int)off; ok = j >= (int)bound; break;
        case BC_SHFL_DOWN: j = l + (int)off; ok = j <= (int)bound; break;
        case BC_SHFL_BFLY: j = l ^ (int)off; ok = j <= (int)bound; break;
        default: j = (int)(first | (off & ~seg)); ok = j <= (int)bound; break;
        }
        if (!ok) j = l;
        uint32_t M = w->coll_mask[l];
        int lo = M ? __builtin_ctz(M) : 0, hi = M ? 31 - __builtin_clz(M) : 31;
        if (P & BIT(j)) {
            const bc_insn *J = &L->code[w->pc[j] - 1];
            nu[l] = U(dw, J->a, j) & 0x0f;
            no[l] = O(dw, J->a, j);
        } else if (!(w->live & BIT(j)) || (I->m1 != BC_SHFL_IDX && (j < lo || j > hi))) {
            /* an exited source gives 0 (a hardware fact); reading past the end of a
             * partial mask with up/down/bfly is the CUDA guide's reduction idiom */
            nu[l] = 0;
            no[l] = 0;
        } else {
            nu[l] = 0x0f;
            uint32_t t = (uint32_t)w->id * W32 + (uint32_t)l;
            no[l] = origin_new(D, w->pc[l] - 1, t, cta->linear, -1, (uint64_t)j, OK_SHFL);
        }
        out |= BIT(l);
    }
    for (uint32_t mm = out; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        const bc_insn *I = &L->code[w->pc[l] - 1];
        if (!nu[l] && !*dw->taint) continue;
        set(dw, I->d, l, nu[l], nu[l] ? no[l] : 0);
        if (I->flags & BC_IF_HAS_E) set(dw, I->e, l, 0, 0);
    }
}
