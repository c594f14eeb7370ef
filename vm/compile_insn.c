/* compile_insn.c — instruction selection: one PTX instruction (operation,
 * modifiers, types, operands) to one or a few specialised bytecode
 * instructions.  Every decision about types, rounding, comparison and form
 * is taken here so the VM's handlers never decode anything.
 */
#include <math.h>
#include <string.h>
#include "compile.h"
#include "mma.h"

/* ---- modifiers --------------------------------------------------------- */

typedef struct mods {
    const ast_insn *in;
    ast_type t[4];
    int nt;
    int rnd, irnd;           /* BC_RN.. / BC_RNI.., -1 when absent */
    int vec;                 /* 1, 2, 4 */
    int space;               /* BC_SP_*, -1 when absent */
    uint64_t *used;          /* bit i: modifier i was read (parse_mods or has); see unused_mod */
} mods;

static void mark_used(const mods *m, int i)
{
    if (i < 64) *m->used |= 1ull << i;
}

static int has(const mods *m, const char *s)
{
    for (int i = 0; i < m->in->nmods; i++)
        if (!strcmp(m->in->mods[i], s)) { mark_used(m, i); return 1; }
    return 0;
}

/* Modifiers an instruction may carry that change nothing here: the memory
 * model's orders and scopes (every access is sequentially consistent),
 * cache and eviction hints, syntax every form of its instruction has, and
 * the default forms the compiler takes without asking (mul.lo, shf.wrap,
 * shf.r, vote.ballot, match.any, bar.red.or, membar.gl, ldmatrix.x1,
 * brx.idx, wmma's .mma/.c/.d/.row, cp.async.mbarrier.arrive, griddepcontrol). */
static int ignorable_mod(const char *s)
{
    static const char *const names[] = {
        "sync", "aligned", "uni", "relaxed", "acquire", "release", "acq_rel", "sc", "weak", "mmio", "cta", "gpu",
        "sys", "cluster", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "L1", "L2", "to",
        "lo", "wrap", "r", "ballot", "any", "or", "gl", "x1", "idx", "mma", "c", "d", "row", "arrive", "wait",
        "launch_dependents",
    };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!strcmp(s, names[k])) return 1;
    return !strncmp(s, "L1::", 4) || !strncmp(s, "L2::", 4) || !strncmp(s, "level::", 7);
}

/* The first modifier of in that no step of its compilation read and that is
 * not ignorable_mod (it would be dropped silently), or NULL. */
static const char *unused_mod(const ast_insn *in, uint64_t used)
{
    for (int i = 0; i < in->nmods && i < 64; i++)
        if (!(used >> i & 1) && !ignorable_mod(in->mods[i])) return in->mods[i];
    return NULL;
}

static void parse_mods(const ast_insn *in, mods *m, uint64_t *used)
{
    memset(m, 0, sizeof *m);
    m->in = in;
    m->used = used;
    *used = 0;
    m->rnd = m->irnd = m->space = -1;
    m->vec = 1;
    static const char *const rn[] = { "rn", "rz", "rm", "rp" };
    static const char *const ri[] = { "rni", "rzi", "rmi", "rpi" };
    static const char *const sp[] = { NULL, "global", "shared", "local", "const", "param" };
    for (int i = 0; i < in->nmods; i++) {
        const char *s = in->mods[i];
        ast_type t = ast_type_from_name(s, strlen(s));
        if (t != AST_T_NONE && m->nt < 4) { m->t[m->nt++] = t; mark_used(m, i); continue; }
        int got = 1;
        for (int k = 0; k < 4; k++) {
            if (!strcmp(s, rn[k])) m->rnd = k;
            else if (!strcmp(s, ri[k])) m->irnd = k;
            else continue;
            goto next;
        }
        for (int k = 1; k < 6; k++) if (!strcmp(s, sp[k])) { m->space = k; goto next; }
        if (!strcmp(s, "shared::cta") || !strcmp(s, "shared::cluster")) m->space = BC_SP_SHARED;
        else if (!strcmp(s, "v2")) m->vec = 2;
        else if (!strcmp(s, "v4")) m->vec = 4;
        else if (!strcmp(s, "v8")) m->vec = 8;
        else got = 0;
        if (!got) continue;
    next:
        mark_used(m, i);
    }
}

static int tbits(ast_type t)
{
    switch (t) {
    case AST_T_PRED: return 1;
    case AST_T_B8: case AST_T_U8: case AST_T_S8: return 8;
    case AST_T_B16: case AST_T_U16: case AST_T_S16: case AST_T_F16: case AST_T_BF16: return 16;
    case AST_T_B32: case AST_T_U32: case AST_T_S32: case AST_T_F32: case AST_T_F16X2:
    case AST_T_BF16X2: case AST_T_TF32: return 32;
    case AST_T_B64: case AST_T_U64: case AST_T_S64: case AST_T_F64: return 64;
    case AST_T_B128: return 128;
    default: return 0;
    }
}
static int tsigned(ast_type t) { return t == AST_T_S8 || t == AST_T_S16 || t == AST_T_S32 || t == AST_T_S64; }
static int tfloat(ast_type t)
{
    return t == AST_T_F16 || t == AST_T_F16X2 || t == AST_T_BF16 || t == AST_T_BF16X2 ||
           t == AST_T_F32 || t == AST_T_F64;
}
static int thalf(ast_type t) { return t == AST_T_F16 || t == AST_T_F16X2 || t == AST_T_BF16 || t == AST_T_BF16X2; }
static int hkind(ast_type t)
{
    return t == AST_T_F16 ? BC_K_F16 : t == AST_T_F16X2 ? BC_K_F16X2 : t == AST_T_BF16 ? BC_K_BF16 : BC_K_BF16X2;
}
/* width index for 16/32/64-bit families (8-bit types use the 16-bit ops) */
static int wix(ast_type t) { int b = tbits(t); return b <= 16 ? 0 : b == 32 ? 1 : 2; }
static uint64_t wmask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
/* float bit width code used by CVT_*: 16, 17 (bf16), 32, 64 */
static int fcode(ast_type t) { return t == AST_T_BF16 ? 17 : t == AST_T_TF32 ? 19 : tbits(t); }

/* ---- operands ----------------------------------------------------------- */

static bc_insn blank(int op)
{
    bc_insn i;
    memset(&i, 0, sizeof i);
    i.op = (uint16_t)op;
    i.guard = BC_NO_GUARD;
    i.src = -1;
    return i;
}

static int nops(bc_cc *c, const ast_insn *in, int lo, int hi)
{
    if (in->nopds >= lo && in->nopds <= hi) return 1;
    if (lo == hi) cc_error(c, NULL, "'%s' takes %d operands, not %d", in->text, lo, in->nopds);
    else cc_error(c, NULL, "'%s' takes %d to %d operands, not %d", in->text, lo, hi, in->nopds);
    return 0;
}

static uint32_t f32_bits_of_double(double d)
{
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* Immediate value of operand o as type t. */
static uint64_t imm_value(bc_cc *c, const ast_operand *o, ast_type t)
{
    int bits = tbits(t);
    if (o->kind == AST_OPD_INT) {
        if (t == AST_T_F32) return f32_bits_of_double((double)o->ival);
        if (t == AST_T_F64) { double d = (double)o->ival; uint64_t b; memcpy(&b, &d, 8); return b; }
        if (t == AST_T_PRED) return o->ival != 0;
        return (uint64_t)o->ival & wmask(bits ? bits : 64);
    }
    double d;
    if (o->kind == AST_OPD_F32) {
        if (t != AST_T_F64) return o->bits & 0xffffffffu;
        uint32_t b = (uint32_t)o->bits; float f; memcpy(&f, &b, 4); d = f;
        uint64_t r; memcpy(&r, &d, 8); return r;
    }
    memcpy(&d, &o->bits, 8);
    if (t == AST_T_F64) return o->bits;
    if (t == AST_T_F32) return f32_bits_of_double(d);
    cc_error(c, &o->loc, "a floating-point literal needs a floating-point type");
    return 0;
}

static uint32_t emit_sreg(bc_cc *c, const ast_operand *o, int id, int comp)
{
    uint32_t t = cc_new_reg(c);
    bc_insn i = blank(OP_SREG);
    i.d = t;
    i.imm = id;
    i.m1 = (uint8_t)comp;
    cc_emit(c, i);
    (void)o;
    return t;
}

/* Source operand as a slot (registers, immediates, special registers,
 * symbol addresses).  `t` is the instruction's type for that operand. */
static uint32_t src(bc_cc *c, const ast_operand *o, ast_type t)
{
    switch (o->kind) {
    case AST_OPD_REG: {
        if (o->name[0] == '%') {
            int comp, id = cc_sreg(o->name, &comp);
            if (id >= 0) return emit_sreg(c, o, id, comp);
        }
        uint32_t s = cc_reg_lookup(c, o, NULL);
        if (o->neg) {
            uint32_t tmp = cc_new_reg(c);
            bc_insn i = blank(OP_NOT_PRED);
            i.d = tmp; i.a = s;
            cc_emit(c, i);
            return tmp;
        }
        return s;
    }
    case AST_OPD_INT: case AST_OPD_F32: case AST_OPD_F64:
        return cc_const(c, imm_value(c, o, t));
    case AST_OPD_SYM: {
        int fp, space;
        uint32_t k = cc_sym_addr(c, o, &fp, &space);
        if (!fp) return k;
        uint32_t tmp = cc_new_reg(c);
        bc_insn i = blank(OP_ADD_64);
        i.d = tmp; i.a = cc_hidden(CC_HID_FP); i.b = k;
        cc_emit(c, i);
        return tmp;
    }
    default:
        cc_error(c, &o->loc, "this operand cannot be used as a value here");
        return cc_const(c, 0);
    }
}

static uint32_t dst(bc_cc *c, const ast_operand *o)
{
    if (o->kind == AST_OPD_SINK) return cc_hidden(CC_HID_SINK);
    if (o->kind != AST_OPD_REG) {
        cc_error(c, &o->loc, "the destination must be a register");
        return cc_hidden(CC_HID_SINK);
    }
    int comp;
    if (cc_sreg(o->name, &comp) >= 0) {
        cc_error(c, &o->loc, "special register '%s' is read-only", o->name);
        return cc_hidden(CC_HID_SINK);
    }
    return cc_reg_lookup(c, o, NULL);
}

/* PTX requires a register operand to have the size of the instruction's
 * type (only ld, st and cvt accept wider registers; predicates only where a
 * predicate is expected).  Reports a mismatch at the operand. */
static void check_reg(bc_cc *c, const ast_operand *o, ast_type t)
{
    if (o->kind != AST_OPD_REG || t == AST_T_NONE || (o->name[0] == '%' && strchr(o->name, '.'))) return;
    int comp;
    if (cc_sreg(o->name, &comp) >= 0) return;
    ast_type rt = AST_T_NONE;
    int errs = c->nerrors;
    diag_list *save = c->diags, quiet;
    diag_init(&quiet);
    c->diags = &quiet;                 /* an undeclared name is reported by src/dst */
    cc_reg_lookup(c, o, &rt);
    c->diags = save;
    diag_list_free(&quiet);
    c->nerrors = errs;
    if (rt == AST_T_NONE) return;
    int want = tbits(t), have = tbits(rt);
    if ((t == AST_T_PRED) != (rt == AST_T_PRED) || (want != have && t != AST_T_PRED))
        cc_error(c, &o->loc, "register '%s' is .%s; '%s' needs %s operand here", o->name, ast_type_name(rt),
                 c->st && c->st->kind == AST_ST_INSN ? c->st->u.insn.text : "this instruction",
                 t == AST_T_PRED ? "a predicate" : want == 16 ? "a 16-bit" : want == 32 ? "a 32-bit" : want == 64 ? "a 64-bit" : "another");
}

static uint32_t srct(bc_cc *c, const ast_operand *o, ast_type t) { check_reg(c, o, t); return src(c, o, t); }
static uint32_t dstt(bc_cc *c, const ast_operand *o, ast_type t) { check_reg(c, o, t); return dst(c, o); }

static ast_type reg_type(bc_cc *c, const ast_operand *o)
{
    ast_type t = AST_T_NONE;
    if (o->kind == AST_OPD_REG && o->name[0] != '%') { cc_reg_lookup(c, o, &t); return t; }
    if (o->kind == AST_OPD_REG) {
        int comp;
        if (cc_sreg(o->name, &comp) >= 0) return AST_T_U32;
        cc_reg_lookup(c, o, &t);
    }
    return t;
}

/* An address operand: base slot, offset and the space a symbol implies
 * (-1 when the base is a register). */
static void addr(bc_cc *c, const ast_operand *o, uint32_t *base, int64_t *imm, int *space)
{
    *space = -1;
    *imm = o->ival;
    if (o->kind != AST_OPD_ADDR) {
        cc_error(c, &o->loc, "expected an address [..]");
        *base = cc_const(c, 0);
        return;
    }
    if (o->nsub == 0) { *base = cc_const(c, 0); return; }
    if (o->nsub > 1) { cc_error(c, &o->loc, "a texture/surface address [.., {..}] is not allowed here"); *base = cc_const(c, 0); return; }
    const ast_operand *b = o->sub[0];
    if (b->kind == AST_OPD_REG) { *base = src(c, b, AST_T_U64); return; }
    if (b->kind != AST_OPD_SYM) { cc_error(c, &b->loc, "bad address base"); *base = cc_const(c, 0); return; }
    const cc_sym *s = cc_sym_lookup(c, b->name);
    if (!s) { cc_error(c, &b->loc, "undefined symbol '%s'", b->name); *base = cc_const(c, 0); return; }
    int64_t off = o->ival + b->ival;
    switch (s->kind) {
    case CC_SYM_KPARAM: *space = BC_SP_KPARAM; *base = cc_const(c, 0); *imm = s->offset + off; return;
    case CC_SYM_FRAME: *space = BC_SP_LOCAL; *base = cc_hidden(CC_HID_FP); *imm = s->offset + off; return;
    case CC_SYM_VAR: {
        const bc_var *v = cc_var(c, s->idx);
        *space = v->space;
        if (v->space == BC_SP_GLOBAL || v->is_extern_shared) {
            int fp, sp;
            ast_operand tmp = *b;
            tmp.ival = off;
            *base = cc_sym_addr(c, &tmp, &fp, &sp);
            *imm = 0;
        } else if (v->space == BC_SP_SHARED) {
            *base = cc_const_var(c, s->idx, 0);   /* the kernel's layout decides the offset */
            *imm = off;
        } else {
            *base = cc_const(c, 0);
            *imm = (int64_t)v->offset + off;
        }
        return;
    }
    default:
        cc_error(c, &b->loc, "'%s' is not a variable", b->name);
        *base = cc_const(c, 0);
    }
}

/* ---- families ------------------------------------------------------------ */

static ast_type type1(bc_cc *c, const mods *m)
{
    if (m->nt < 1) { cc_error(c, NULL, "'%s' needs a type", m->in->text); return AST_T_B32; }
    return m->t[m->nt - 1];
}

static void emit3(bc_cc *c, int op, const ast_insn *in, ast_type t, int n)
{
    bc_insn i = blank(op);
    i.d = dstt(c, in->opds[0], t);
    if (n > 1) i.a = srct(c, in->opds[1], t);
    if (n > 2) i.b = srct(c, in->opds[2], t);
    if (n > 3) i.c = srct(c, in->opds[3], t);
    cc_emit(c, i);
}

static void emit_fp(bc_cc *c, int op, const ast_insn *in, const mods *m, ast_type t, int n)
{
    bc_insn i = blank(op);
    ast_type dt = (op == OP_TESTP_F32 || op == OP_TESTP_F64) ? AST_T_PRED : t;
    i.d = dstt(c, in->opds[0], dt);
    if (n > 1) i.a = srct(c, in->opds[1], t);
    if (n > 2) i.b = srct(c, in->opds[2], t);
    if (n > 3) i.c = srct(c, in->opds[3], t);
    i.m1 = (uint8_t)(m->rnd < 0 ? BC_RN : m->rnd);
    if (has(m, "ftz")) i.flags |= BC_IF_FTZ;
    if (has(m, "sat")) i.flags |= BC_IF_SAT;
    if (has(m, "NaN")) i.m3 = 1;
    if (has(m, "relu")) i.flags |= BC_IF_RELU;
    if (thalf(t)) i.m2 = (uint8_t)hkind(t);
    cc_emit(c, i);
}

/* add sub mul mad fma div rem min max abs neg: integer and float */
static void arith(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    ast_type t = type1(c, m);
    int w = wix(t), u = !tsigned(t);
    int fast = m->rnd <= BC_RN && !has(m, "ftz") && !has(m, "sat");
    int three = !strcmp(op, "mad") || !strcmp(op, "fma");
    int unary = !strcmp(op, "abs") || !strcmp(op, "neg");
    if (!nops(c, in, unary ? 2 : three ? 4 : 3, unary ? 2 : three ? 4 : 3)) return;
    int n = in->nopds;
    if (thalf(t)) {
        int hop = !strcmp(op, "add") ? OP_HADD : !strcmp(op, "sub") ? OP_HSUB : !strcmp(op, "mul") ? OP_HMUL
                : three ? OP_HFMA : !strcmp(op, "min") ? OP_HMIN : !strcmp(op, "max") ? OP_HMAX
                : !strcmp(op, "neg") ? OP_HNEG : !strcmp(op, "abs") ? OP_HABS : -1;
        if (hop < 0) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        emit_fp(c, hop, in, m, t, n);
        return;
    }
    if (t == AST_T_F32 || t == AST_T_F64) {
        int d = t == AST_T_F64;
        int o = -1;
        if (!strcmp(op, "add")) o = fast ? (d ? OP_ADD_F64 : OP_ADD_F32) : (d ? OP_ADD_F64X : OP_ADD_F32X);
        else if (!strcmp(op, "sub")) o = fast ? (d ? OP_SUB_F64 : OP_SUB_F32) : (d ? OP_SUB_F64X : OP_SUB_F32X);
        else if (!strcmp(op, "mul")) o = fast ? (d ? OP_MUL_F64 : OP_MUL_F32) : (d ? OP_MUL_F64X : OP_MUL_F32X);
        else if (three) o = fast ? (d ? OP_FMA_F64 : OP_FMA_F32) : (d ? OP_FMA_F64X : OP_FMA_F32X);
        else if (!strcmp(op, "div")) {
            if (has(m, "approx")) o = d ? -1 : OP_DIV_APPROX_F32;
            else if (has(m, "full")) o = d ? -1 : OP_DIV_FULL_F32;
            else o = fast ? (d ? OP_DIV_F64 : OP_DIV_F32) : (d ? OP_DIV_F64X : OP_DIV_F32X);
        }
        else if (!strcmp(op, "min")) o = d ? OP_MIN_F64 : OP_MIN_F32;
        else if (!strcmp(op, "max")) o = d ? OP_MAX_F64 : OP_MAX_F32;
        else if (!strcmp(op, "abs")) o = d ? OP_ABS_F64 : OP_ABS_F32;
        else if (!strcmp(op, "neg")) o = d ? OP_NEG_F64 : OP_NEG_F32;
        if (o < 0) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        if (!strcmp(op, "mad") && m->rnd < 0 && !d) {
            /* mad.f32 without rounding is fma.rn on sm_20+ */
        }
        emit_fp(c, o, in, m, t, n);
        return;
    }
    if (tfloat(t) || tbits(t) > 64 || t == AST_T_PRED) { cc_error(c, NULL, "unsupported type in '%s'", in->text); return; }
    int o = -1;
    int hi = has(m, "hi"), wide = has(m, "wide");
    if (!strcmp(op, "add")) o = has(m, "sat") ? (t == AST_T_S32 ? OP_ADDSAT_S32 : -1) : has(m, "cc") ? (w == 1 ? OP_ADDCC_32 : w == 2 ? OP_ADDCC_64 : -1) : OP_ADD_16 + w;
    else if (!strcmp(op, "sub")) o = has(m, "sat") ? (t == AST_T_S32 ? OP_SUBSAT_S32 : -1) : has(m, "cc") ? (w == 1 ? OP_SUBCC_32 : w == 2 ? OP_SUBCC_64 : -1) : OP_SUB_16 + w;
    else if (!strcmp(op, "mul")) {
        if (wide) o = w == 2 ? -1 : OP_MULWIDE_S16 + w * 2 + u;
        else if (hi) o = OP_MULHI_S16 + w * 2 + u;
        else o = OP_MUL_16 + w;
    } else if (!strcmp(op, "mad")) {
        if (has(m, "cc")) o = w == 1 ? OP_MADCC_32 : -1;
        else if (wide) o = w == 2 ? -1 : OP_MADWIDE_S16 + w * 2 + u;
        else if (hi) o = w == 0 ? -1 : OP_MADHI_S32 + (w - 1) * 2 + u;
        else o = OP_MAD_16 + w;
    }
    else if (!strcmp(op, "div")) o = OP_DIV_S16 + w * 2 + u;
    else if (!strcmp(op, "rem")) o = OP_REM_S16 + w * 2 + u;
    else if (!strcmp(op, "min")) o = OP_MIN_S16 + w * 4 + u;
    else if (!strcmp(op, "max")) o = OP_MIN_S16 + w * 4 + 2 + u;
    else if (!strcmp(op, "abs")) o = OP_ABS_16 + w;
    else if (!strcmp(op, "neg")) o = OP_NEG_16 + w;
    if (o < 0) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
    /* wide forms read narrow sources and write a double-width destination */
    bc_insn i = blank(o);
    ast_type wt = tsigned(t) ? (w == 0 ? AST_T_S32 : AST_T_S64) : (w == 0 ? AST_T_U32 : AST_T_U64);
    i.d = dstt(c, in->opds[0], wide ? wt : t);
    i.a = srct(c, in->opds[1], t);
    if (n > 2) i.b = srct(c, in->opds[2], t);
    if (n > 3) i.c = srct(c, in->opds[3], wide ? wt : t);
    if (o == OP_MADCC_32) { i.m1 = (uint8_t)hi; i.m2 = (uint8_t)!u; }
    cc_emit(c, i);
}

/* addc subc madc: carry-in forms */
static void carry(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    ast_type t = type1(c, m);
    int w64 = tbits(t) == 64, cc = has(m, "cc");
    int o;
    if (!strcmp(op, "addc")) o = w64 ? (cc ? OP_ADDCCC_64 : OP_ADDC_64) : (cc ? OP_ADDCCC_32 : OP_ADDC_32);
    else if (!strcmp(op, "subc")) o = w64 ? (cc ? OP_SUBCCC_64 : OP_SUBC_64) : (cc ? OP_SUBCCC_32 : OP_SUBC_32);
    else {
        if (w64) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        o = cc ? OP_MADCCC_32 : OP_MADC_32;
    }
    int n = !strcmp(op, "madc") ? 4 : 3;
    if (!nops(c, in, n, n)) return;
    bc_insn i = blank(o);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], t);
    i.b = src(c, in->opds[2], t);
    if (n == 4) i.c = src(c, in->opds[3], t);
    i.m1 = (uint8_t)has(m, "hi");
    i.m2 = (uint8_t)tsigned(t);
    cc_emit(c, i);
}

static void logic(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    ast_type t = type1(c, m);
    int w = wix(t);
    if (!strcmp(op, "not") || !strcmp(op, "cnot")) {
        if (!nops(c, in, 2, 2)) return;
        int o = !strcmp(op, "cnot") ? OP_CNOT : t == AST_T_PRED ? OP_NOT_PRED : OP_NOT_16 + w;
        emit3(c, o, in, t, 2);
        return;
    }
    if (!nops(c, in, 3, 3)) return;
    int o = !strcmp(op, "and") ? OP_AND : !strcmp(op, "or") ? OP_OR : OP_XOR;
    emit3(c, o, in, t, 3);
}

static void shift(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    ast_type t = type1(c, m);
    int w = wix(t);
    if (!nops(c, in, 3, 3)) return;
    int o = !strcmp(op, "shl") ? OP_SHL_16 + w : tsigned(t) ? OP_SHR_S16 + w : OP_SHR_U16 + w;
    bc_insn i = blank(o);
    i.d = dstt(c, in->opds[0], t);
    i.a = srct(c, in->opds[1], t);
    i.b = srct(c, in->opds[2], AST_T_U32);
    cc_emit(c, i);
}

static void bits(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    ast_type t = type1(c, m);
    int w64 = tbits(t) == 64, s = tsigned(t);
    bc_insn i = blank(OP_NOP);
    int n = 2;
    if (!strcmp(op, "popc")) i.op = w64 ? OP_POPC_64 : OP_POPC_32;
    else if (!strcmp(op, "clz")) i.op = w64 ? OP_CLZ_64 : OP_CLZ_32;
    else if (!strcmp(op, "brev")) i.op = w64 ? OP_BREV_64 : OP_BREV_32;
    else if (!strcmp(op, "bfind")) { i.op = (uint16_t)(OP_BFIND_U32 + w64 * 2 + s); i.m1 = (uint8_t)has(m, "shiftamt"); }
    else if (!strcmp(op, "bfe")) { i.op = (uint16_t)(OP_BFE_U32 + w64 * 2 + s); n = 4; }
    else if (!strcmp(op, "bfi")) { i.op = w64 ? OP_BFI_64 : OP_BFI_32; n = 5; }
    else if (!strcmp(op, "bmsk")) { i.op = OP_BMSK; n = 3; i.m1 = (uint8_t)has(m, "clamp"); }
    else if (!strcmp(op, "fns")) { i.op = OP_FNS; n = 4; }
    else if (!strcmp(op, "szext")) { i.op = OP_SZEXT; n = 3; i.m1 = (uint8_t)s; i.m2 = (uint8_t)has(m, "clamp"); }
    if (!nops(c, in, n, n)) return;
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], t);
    if (n > 2) i.b = src(c, in->opds[2], (i.op == OP_BFI_32 || i.op == OP_BFI_64) ? t : AST_T_U32);
    if (n > 3) i.c = src(c, in->opds[3], AST_T_U32);
    if (n > 4) i.e = src(c, in->opds[4], AST_T_U32);
    if (i.op == OP_FNS) { i.b = src(c, in->opds[2], AST_T_U32); i.c = src(c, in->opds[3], AST_T_S32); }
    /* bfe.s32 with an immediate position of 32 or more and an immediate length of 1 or more is
     * all ones on sm_90 whatever a is (what ptxas makes of it; from registers it is a's bit 31
     * repeated, as the PTX manual says): tests/cases/bfe_edge, recorded on an H100 */
    if (i.op == OP_BFE_S32 && in->opds[2]->kind == AST_OPD_INT && in->opds[3]->kind == AST_OPD_INT &&
        (in->opds[2]->ival & 0xff) >= 32 && (in->opds[3]->ival & 0xff) >= 1) {
        i.op = OP_MOV;
        i.a = cc_const(c, 0xffffffffu);
        i.b = i.c = 0;
    }
    /* bfi.b32 with an immediate position that is not a multiple of 8 (below 32) and an immediate
     * length of 32 or more inserts (length mod 32) bits on sm_90 (ptxas builds the mask with 32-bit
     * shifts, which wrap; whole bytes it moves otherwise, and from registers the manual's clamp
     * holds): recorded on an H100 for every position 0..40 and length 0..70 (tests/cases/bfi_imm, imm_edge) */
    if (i.op == OP_BFI_32 && in->opds[3]->kind == AST_OPD_INT && in->opds[4]->kind == AST_OPD_INT) {
        uint32_t pos = (uint32_t)in->opds[3]->ival & 0xff, len = (uint32_t)in->opds[4]->ival & 0xff;
        if (pos < 32 && pos % 8 && len >= 32) i.e = cc_const(c, len & 31);
    }
    cc_emit(c, i);
}

static void prmt(bc_cc *c, const ast_insn *in, const mods *m)
{
    static const char *const modes[] = { "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" };
    if (!nops(c, in, 4, 4)) return;
    bc_insn i = blank(OP_PRMT);
    for (int k = 0; k < 6; k++) if (has(m, modes[k])) i.m1 = (uint8_t)(k + 1);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], AST_T_B32);
    i.b = src(c, in->opds[2], AST_T_B32);
    i.c = src(c, in->opds[3], AST_T_B32);
    cc_emit(c, i);
}

static void lop3(bc_cc *c, const ast_insn *in)
{
    if (!nops(c, in, 5, 5)) return;
    if (in->opds[4]->kind != AST_OPD_INT) { cc_error(c, &in->opds[4]->loc, "lop3 needs an immediate lookup table"); return; }
    bc_insn i = blank(OP_LOP3);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], AST_T_B32);
    i.b = src(c, in->opds[2], AST_T_B32);
    i.c = src(c, in->opds[3], AST_T_B32);
    i.imm = in->opds[4]->ival & 0xff;
    cc_emit(c, i);
}

static void shf(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (!nops(c, in, 4, 4)) return;
    bc_insn i = blank(has(m, "l") ? OP_SHF_L : OP_SHF_R);
    i.m1 = (uint8_t)has(m, "clamp");
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], AST_T_B32);
    i.b = src(c, in->opds[2], AST_T_B32);
    i.c = src(c, in->opds[3], AST_T_U32);
    cc_emit(c, i);
}

static void sad_dp(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    if (!nops(c, in, 4, 4)) return;
    ast_type t = type1(c, m);
    bc_insn i = blank(OP_NOP);
    if (!strcmp(op, "sad")) i.op = (uint16_t)(tbits(t) == 64 ? (tsigned(t) ? OP_SAD_S64 : OP_SAD_U64) : (tsigned(t) ? OP_SAD_S32 : OP_SAD_U32));
    else {
        i.op = !strcmp(op, "dp4a") ? OP_DP4A : OP_DP2A;
        i.m1 = (uint8_t)(m->nt >= 2 && tsigned(m->t[0]));
        i.m2 = (uint8_t)(m->nt >= 2 && tsigned(m->t[1]));
        i.m3 = (uint8_t)has(m, "hi");
    }
    i.d = dst(c, in->opds[0]);
    ast_type ot = !strcmp(op, "sad") ? t : AST_T_B32;
    i.a = src(c, in->opds[1], ot);
    i.b = src(c, in->opds[2], ot);
    i.c = src(c, in->opds[3], ot);
    cc_emit(c, i);
}

static int cmp_code(const mods *m)
{
    static const char *const names[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                                         "ltu", "leu", "gtu", "geu", "num", "nan" };
    for (int k = 0; k < 14; k++) if (has(m, names[k])) return k;
    if (has(m, "lo")) return BC_CMP_LT + 100;       /* unsigned forms */
    if (has(m, "ls")) return BC_CMP_LE + 100;
    if (has(m, "hi")) return BC_CMP_GT + 100;
    if (has(m, "hs")) return BC_CMP_GE + 100;
    return -1;
}

/* Emits the compare part of setp/set into d; returns 0 on error. */
static int compare(bc_cc *c, const mods *m, ast_type t, uint32_t d, const ast_operand *a, const ast_operand *b)
{
    int cmp = cmp_code(m);
    if (cmp < 0) { cc_error(c, NULL, "'%s' needs a comparison operator", m->in->text); return 0; }
    int uns = cmp >= 100 || !tsigned(t);
    cmp %= 100;
    bc_insn i = blank(OP_NOP);
    i.d = d;
    uint32_t sa = srct(c, a, t), sb = srct(c, b, t);
    i.a = sa; i.b = sb;
    if (tfloat(t)) {
        i.op = t == AST_T_F64 ? OP_SETP_F64 : t == AST_T_F32 ? OP_SETP_F32 : OP_SETP_F16;
        if (thalf(t)) {
            i.m2 = (uint8_t)hkind(t);
            if (t == AST_T_F16X2 || t == AST_T_BF16X2) { cc_error(c, NULL, "unsupported instruction '%s'", m->in->text); return 0; }
        }
        i.m1 = (uint8_t)cmp;
        if (has(m, "ftz")) i.flags |= BC_IF_FTZ;
    } else {
        if (cmp >= BC_CMP_EQU) { cc_error(c, NULL, "'%s': unordered comparisons need a float type", m->in->text); return 0; }
        if (cmp == BC_CMP_GT || cmp == BC_CMP_GE) { i.a = sb; i.b = sa; cmp = cmp == BC_CMP_GT ? BC_CMP_LT : BC_CMP_LE; }
        int w = wix(t);
        if (cmp == BC_CMP_EQ) i.op = OP_SETP_EQ;
        else if (cmp == BC_CMP_NE) i.op = OP_SETP_NE;
        else if (uns) i.op = cmp == BC_CMP_LT ? OP_SETP_LT_U : OP_SETP_LE_U;
        else i.op = (uint16_t)(OP_SETP_LT_S16 + w * 2 + (cmp == BC_CMP_LE));
    }
    cc_emit(c, i);
    return 1;
}

static int bool_code(const mods *m)
{
    return has(m, "and") ? BC_BOOL_AND : has(m, "or") ? BC_BOOL_OR : has(m, "xor") ? BC_BOOL_XOR : -1;
}

/* setp.f16x2 / .bf16x2 p|q: p from the low halves, q from the high ones. */
static void setp_x2(bc_cc *c, const ast_insn *in, const mods *m, ast_type t, int bop)
{
    const ast_operand *d = in->opds[0];
    int cmp = cmp_code(m);
    if (d->kind != AST_OPD_PAIR || cmp < 0 || cmp >= 100) { cc_error(c, NULL, "'%s' needs a comparison and a destination pair p|q", in->text); return; }
    uint32_t p = dst(c, d->sub[0]), q = dst(c, d->sub[1]);
    bc_insn i = blank(OP_SETP_F16X2);
    i.m1 = (uint8_t)cmp;
    i.m2 = (uint8_t)(t == AST_T_BF16X2 ? BC_K_BF16 : BC_K_F16);
    if (has(m, "ftz")) i.flags |= BC_IF_FTZ;
    i.a = src(c, in->opds[1], AST_T_B32);
    i.b = src(c, in->opds[2], AST_T_B32);
    i.d = bop < 0 ? p : cc_new_reg(c);
    i.e = bop < 0 ? q : cc_new_reg(c);
    i.flags |= BC_IF_HAS_E;
    cc_emit(c, i);
    if (bop < 0) return;
    uint32_t cs = src(c, in->opds[3], AST_T_PRED);
    for (int k = 0; k < 2; k++) {
        bc_insn b = blank(OP_SETP_BOOL);
        b.d = k ? q : p;
        b.a = k ? i.e : i.d;
        b.c = cs;
        b.m1 = (uint8_t)bop;
        cc_emit(c, b);
    }
}

static void setp(bc_cc *c, const ast_insn *in, const mods *m)
{
    ast_type t = type1(c, m);
    int bop = bool_code(m);
    if (!nops(c, in, bop < 0 ? 3 : 4, bop < 0 ? 3 : 4)) return;
    if (t == AST_T_F16X2 || t == AST_T_BF16X2) { setp_x2(c, in, m, t, bop); return; }
    const ast_operand *d = in->opds[0];
    uint32_t p, q = 0;
    if (d->kind == AST_OPD_PAIR) { p = dst(c, d->sub[0]); q = dst(c, d->sub[1]); }
    else p = dst(c, d);
    if (bop < 0 && !q) { compare(c, m, t, p, in->opds[1], in->opds[2]); return; }
    uint32_t tmp = cc_new_reg(c);
    if (!compare(c, m, t, tmp, in->opds[1], in->opds[2])) return;
    bc_insn i = blank(OP_SETP_BOOL);
    i.d = p; i.a = tmp;
    i.c = bop < 0 ? cc_const(c, 1) : src(c, in->opds[3], AST_T_PRED);
    i.m1 = (uint8_t)(bop < 0 ? BC_BOOL_AND : bop);
    if (q) { i.e = q; i.flags |= BC_IF_HAS_E; }
    cc_emit(c, i);
}

/* d = v where predicate p holds, else 0 */
static uint32_t emit_selp0(bc_cc *c, uint32_t d, uint64_t v, uint32_t p)
{
    bc_insn s = blank(OP_SELP);
    s.d = d; s.a = cc_const(c, v); s.b = cc_const(c, 0); s.c = p;
    cc_emit(c, s);
    return d;
}

/* set with a half-precision source or a 16-bit destination (cuda_fp16.h's
 * h2exp and others use set.eq.f16x2.f16x2): each comparison as setp makes
 * it (then combined with c), true giving 1.0 in an f16/bf16 destination
 * (0x3c00, 0x3f80) and all ones of 16 or 32 bits in an integer one, false
 * giving 0; an f16x2/bf16x2 source's two results packed in the halves of d
 * (PTX ISA, half precision set). */
static void set_half(bc_cc *c, const ast_insn *in, const mods *m, int bop)
{
    ast_type dt = m->t[0], st = m->t[1];
    int x2 = st == AST_T_F16X2 || st == AST_T_BF16X2;
    uint32_t p[2] = { cc_new_reg(c), cc_new_reg(c) };
    if (x2) {
        int cmp = cmp_code(m);
        if (cmp < 0 || cmp >= 100) { cc_error(c, NULL, "'%s' needs a comparison operator", in->text); return; }
        bc_insn i = blank(OP_SETP_F16X2);
        i.m1 = (uint8_t)cmp;
        i.m2 = (uint8_t)(st == AST_T_BF16X2 ? BC_K_BF16 : BC_K_F16);
        if (has(m, "ftz")) i.flags |= BC_IF_FTZ;
        i.a = src(c, in->opds[1], AST_T_B32);
        i.b = src(c, in->opds[2], AST_T_B32);
        i.d = p[0]; i.e = p[1];
        i.flags |= BC_IF_HAS_E;
        cc_emit(c, i);
    } else if (!compare(c, m, st, p[0], in->opds[1], in->opds[2])) return;
    for (int k = 0; k < 1 + x2 && bop >= 0; k++) {
        bc_insn b = blank(OP_SETP_BOOL);
        b.d = b.a = p[k]; b.c = src(c, in->opds[3], AST_T_PRED); b.m1 = (uint8_t)bop;
        cc_emit(c, b);
    }
    uint64_t one = dt == AST_T_F16 || dt == AST_T_F16X2 ? 0x3c00 : dt == AST_T_BF16 || dt == AST_T_BF16X2 ? 0x3f80
                 : tbits(dt) == 16 || x2 ? 0xffff : 0xffffffff;
    uint32_t d = dst(c, in->opds[0]);
    if (!x2) { emit_selp0(c, d, one, p[0]); return; }
    bc_insn o = blank(OP_OR);
    o.a = emit_selp0(c, cc_new_reg(c), one, p[0]);
    o.b = emit_selp0(c, cc_new_reg(c), one << 16, p[1]);
    o.d = d;
    cc_emit(c, o);
}

static void set(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (m->nt < 2) { cc_error(c, NULL, "'%s' needs a destination and a source type", in->text); return; }
    int bop = bool_code(m);
    if (!nops(c, in, bop < 0 ? 3 : 4, bop < 0 ? 3 : 4)) return;
    if (thalf(m->t[0]) || thalf(m->t[1]) || tbits(m->t[0]) == 16) { set_half(c, in, m, bop); return; }
    uint32_t tmp = cc_new_reg(c);
    if (!compare(c, m, m->t[1], tmp, in->opds[1], in->opds[2])) return;
    if (bop >= 0) {
        bc_insn b = blank(OP_SETP_BOOL);
        b.d = tmp; b.a = tmp; b.c = src(c, in->opds[3], AST_T_PRED); b.m1 = (uint8_t)bop;
        cc_emit(c, b);
    }
    bc_insn i = blank(m->t[0] == AST_T_F32 ? OP_SET_F32 : OP_SET_INT);
    i.d = dst(c, in->opds[0]);
    i.a = tmp;
    cc_emit(c, i);
}

static void selp(bc_cc *c, const ast_insn *in, const mods *m)
{
    ast_type t = type1(c, m);
    if (!nops(c, in, 4, 4)) return;
    bc_insn i = blank(OP_SELP);
    i.d = dstt(c, in->opds[0], t);
    i.a = srct(c, in->opds[1], t);
    i.b = srct(c, in->opds[2], t);
    i.c = srct(c, in->opds[3], AST_T_PRED);
    cc_emit(c, i);
}

static void slct(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (!nops(c, in, 4, 4) || m->nt < 2) return;
    bc_insn i = blank(m->t[1] == AST_T_F32 ? OP_SLCT_F : OP_SLCT_S);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], m->t[0]);
    i.b = src(c, in->opds[2], m->t[0]);
    i.c = src(c, in->opds[3], m->t[1]);
    cc_emit(c, i);
}

static void fp_unary(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    ast_type t = type1(c, m);
    int d = t == AST_T_F64, approx = has(m, "approx");
    int o = -1;
    if (!nops(c, in, 2, 2)) return;
    if (!strcmp(op, "sqrt")) o = d ? (approx ? -1 : OP_SQRT_F64) : approx ? OP_SQRT_APPROX_F32 : OP_SQRT_F32;
    else if (!strcmp(op, "rcp")) o = d ? (approx ? OP_RCP_APPROX_F64 : OP_RCP_F64) : approx ? OP_RCP_APPROX_F32 : OP_RCP_F32;
    else if (!strcmp(op, "rsqrt")) o = d ? OP_RSQRT_APPROX_F64 : OP_RSQRT_APPROX_F32;
    else if (!strcmp(op, "ex2")) o = thalf(t) ? OP_HEX2_APPROX : d ? -1 : OP_EX2_APPROX_F32;
    else if (!strcmp(op, "lg2")) o = d ? -1 : OP_LG2_APPROX_F32;
    else if (!strcmp(op, "sin")) o = d ? -1 : OP_SIN_APPROX_F32;
    else if (!strcmp(op, "cos")) o = d ? -1 : OP_COS_APPROX_F32;
    else if (!strcmp(op, "tanh")) o = thalf(t) ? OP_HTANH_APPROX : d ? -1 : OP_TANH_APPROX_F32;
    if (o < 0 || (thalf(t) && o != OP_HEX2_APPROX && o != OP_HTANH_APPROX)) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
    emit_fp(c, o, in, m, t, 2);
}

static void testp(bc_cc *c, const ast_insn *in, const mods *m)
{
    static const char *const k[] = { "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
    ast_type t = type1(c, m);
    if (!nops(c, in, 2, 2)) return;
    bc_insn i = blank(t == AST_T_F64 ? OP_TESTP_F64 : OP_TESTP_F32);
    for (int j = 0; j < 6; j++) if (has(m, k[j])) i.m1 = (uint8_t)j;
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], t);
    cc_emit(c, i);
}

static void copysign_insn(bc_cc *c, const ast_insn *in, const mods *m)
{
    ast_type t = type1(c, m);
    if (!nops(c, in, 3, 3)) return;
    emit3(c, t == AST_T_F64 ? OP_COPYSIGN_F64 : OP_COPYSIGN_F32, in, t, 3);
}

/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b; the same .f16x2 d, a;
 * cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a (OP_CVT_F8X2). */
static void cvt_fp8(bc_cc *c, const ast_insn *in, const mods *m)
{
    ast_type dt = m->t[0], st = m->t[1];
    int to8 = dt == AST_T_E4M3X2 || dt == AST_T_E5M2X2;
    ast_type f8 = to8 ? dt : st;
    int form = !to8 ? 2 : st == AST_T_F32 ? 0 : st == AST_T_F16X2 ? 1 : -1;
    if (form < 0 || (to8 && !has(m, "satfinite")) || m->rnd != BC_RN || !nops(c, in, form ? 2 : 3, form ? 2 : 3) ||
        (!to8 && dt != AST_T_F16X2)) {
        cc_error(c, NULL, "unsupported instruction '%s'", in->text);
        return;
    }
    bc_insn i = blank(OP_CVT_F8X2);
    i.m1 = (uint8_t)form;
    i.m2 = f8 == AST_T_E5M2X2;
    if (has(m, "relu")) i.flags |= BC_IF_RELU;
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], form == 0 ? AST_T_F32 : AST_T_B32);
    if (form == 0) i.b = src(c, in->opds[2], AST_T_F32);
    cc_emit(c, i);
}

static void cvt(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (m->nt < 2) { cc_error(c, NULL, "'%s' needs a destination and a source type", in->text); return; }
    ast_type dt = m->t[0], st = m->t[1];
    if (!nops(c, in, 2, 3)) return;
    if (dt == AST_T_E4M3X2 || dt == AST_T_E5M2X2 || st == AST_T_E4M3X2 || st == AST_T_E5M2X2) { cvt_fp8(c, in, m); return; }
    if (in->nopds == 3) {
        if (dt != AST_T_F16X2 && dt != AST_T_BF16X2) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        bc_insn i = blank(OP_CVT_PACK_F16X2);
        i.d = dst(c, in->opds[0]);
        i.a = src(c, in->opds[1], st);
        i.b = src(c, in->opds[2], st);
        i.m1 = (uint8_t)(m->rnd < 0 ? BC_RN : m->rnd);
        i.m2 = (uint8_t)hkind(dt);
        if (has(m, "relu")) i.flags |= BC_IF_RELU;
        if (has(m, "satfinite")) i.m3 = 1;
        if (has(m, "sat")) i.flags |= BC_IF_SAT;
        cc_emit(c, i);
        return;
    }
    bc_insn i = blank(OP_NOP);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], st);
    if (has(m, "ftz")) i.flags |= BC_IF_FTZ;
    if (has(m, "sat")) i.flags |= BC_IF_SAT;
    if (has(m, "relu")) i.flags |= BC_IF_RELU;
    if (has(m, "satfinite")) i.flags |= BC_IF_HAS_E;      /* cvt: .satfinite */
    if (dt == AST_T_TF32) {
        if (st != AST_T_F32) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        i.op = OP_CVT_TF32;
        i.m1 = (uint8_t)(has(m, "rna") ? 4 : m->rnd < 0 ? BC_RN : m->rnd);
        cc_emit(c, i);
        return;
    }
    int sb = tbits(st), db = tbits(dt);
    if (dt == AST_T_F16X2 || dt == AST_T_BF16X2 || st == AST_T_F16X2 || st == AST_T_BF16X2 || sb > 64 || db > 64 || !sb || !db) {
        cc_error(c, NULL, "unsupported instruction '%s'", in->text);
        return;
    }
    if (!tfloat(dt) && !tfloat(st)) {
        if (has(m, "sat") && (sb > db || tsigned(st) != tsigned(dt))) {
            i.op = OP_CVT_ISAT;
            i.m1 = (uint8_t)(sb | tsigned(st) << 7);
            i.m2 = (uint8_t)(db | tsigned(dt) << 7);
        } else if (sb < db && tsigned(st)) {
            i.op = OP_CVT_SX; i.imm = sb; i.m1 = (uint8_t)(db / 8);
        } else {
            i.op = OP_CVT_ZX; i.imm = sb < db ? sb : db;
        }
        /* the destination register may be wider than the type: sign-extend into it */
        ast_type rt = reg_type(c, in->opds[0]);
        if (tsigned(dt) && tbits(rt) > db) {
            cc_emit(c, i);
            bc_insn x = blank(OP_CVT_SX);
            x.d = i.d; x.a = i.d; x.imm = db; x.m1 = (uint8_t)(tbits(rt) / 8);
            cc_emit(c, x);
            return;
        }
    } else if (tfloat(dt) && tfloat(st)) {
        i.op = OP_CVT_F2F;
        i.m1 = (uint8_t)fcode(st);
        i.m2 = (uint8_t)fcode(dt);
        i.m3 = (uint8_t)(m->irnd >= 0 ? 4 + m->irnd : m->rnd >= 0 ? m->rnd : 8);
    } else if (tfloat(st)) {
        i.op = OP_CVT_F2I;
        i.m1 = (uint8_t)fcode(st);
        i.m2 = (uint8_t)(db | tsigned(dt) << 7);
        i.m3 = (uint8_t)(m->irnd >= 0 ? m->irnd : BC_RZI);
    } else {
        i.op = OP_CVT_I2F;
        i.m1 = (uint8_t)(sb | tsigned(st) << 7);
        i.m2 = (uint8_t)fcode(dt);
        i.m3 = (uint8_t)(m->rnd >= 0 ? m->rnd : BC_RN);
    }
    cc_emit(c, i);
}

/* mov: registers, immediates, special registers, symbol addresses, packing. */
static void mov(bc_cc *c, const ast_insn *in, const mods *m)
{
    ast_type t = type1(c, m);
    if (!nops(c, in, 2, 2)) return;
    const ast_operand *d = in->opds[0], *a = in->opds[1];
    int bits = tbits(t);
    if (d->kind == AST_OPD_VEC) {                /* unpack: mov.b64 {lo,hi}, x */
        uint32_t slots[8];
        int n = d->nsub;
        if (n < 2 || n > 8 || bits % n) { cc_error(c, &d->loc, "bad vector destination"); return; }
        for (int k = 0; k < n; k++) slots[k] = dst(c, d->sub[k]);
        bc_insn i = blank(OP_UNPACK);
        i.a = src(c, a, t);
        i.n = (uint8_t)n;
        i.imm = bits / n;
        i.x = cc_extra(c, slots, n, 1);
        cc_emit(c, i);
        return;
    }
    if (a->kind == AST_OPD_VEC) {                /* pack: mov.b64 x, {lo,hi} */
        int n = a->nsub;
        if ((n != 2 && n != 4) || bits % n) { cc_error(c, &a->loc, "bad vector source"); return; }
        ast_type et = bits / n == 8 ? AST_T_B8 : bits / n == 16 ? AST_T_B16 : AST_T_B32;
        bc_insn i = blank(n == 2 ? OP_PACK2 : OP_PACK4);
        i.d = dst(c, d);
        i.a = src(c, a->sub[0], et);
        i.b = src(c, a->sub[1], et);
        if (n == 4) { i.c = src(c, a->sub[2], et); i.e = src(c, a->sub[3], et); }
        i.imm = bits / n;
        cc_emit(c, i);
        return;
    }
    bc_insn i = blank(OP_MOV);
    i.d = dstt(c, d, t);
    i.a = srct(c, a, t);
    if (a->kind == AST_OPD_REG && a->name[0] == '%') {
        /* special registers and the like were materialised by src(); a
         * 32-bit mov of a 64-bit value keeps the low half */
        if (bits == 32) { i.op = OP_CVT_ZX; i.imm = 32; }
    }
    cc_emit(c, i);
}

static int space_op(int space, int ld)
{
    switch (space) {
    case BC_SP_GLOBAL: return ld ? OP_LD_GLOBAL : OP_ST_GLOBAL;
    case BC_SP_SHARED: return ld ? OP_LD_SHARED : OP_ST_SHARED;
    case BC_SP_LOCAL: return ld ? OP_LD_LOCAL : OP_ST_LOCAL;
    case BC_SP_CONST: return ld ? OP_LD_CONST : -1;
    case BC_SP_KPARAM: return ld ? OP_LD_KPARAM : -1;
    default: return ld ? OP_LD_GENERIC : OP_ST_GENERIC;
    }
}

/* ld / ldu / st in every space, with vectors and extension into wider registers. */
static void ldst(bc_cc *c, const ast_insn *in, const mods *m, int ld)
{
    ast_type t = type1(c, m);
    if (!nops(c, in, 2, 2)) return;
    const ast_operand *v = in->opds[ld ? 0 : 1], *ad = in->opds[ld ? 1 : 0];
    uint32_t base; int64_t imm; int symsp;
    addr(c, ad, &base, &imm, &symsp);
    int space = m->space;
    /* .param names the frame in a .func and the kernel buffer in an entry */
    if (space == BC_SP_KPARAM || symsp == BC_SP_KPARAM || (space == BC_SP_LOCAL && symsp == BC_SP_LOCAL))
        space = symsp >= 0 ? symsp : c->fn->is_entry ? BC_SP_KPARAM : BC_SP_LOCAL;
    else if (space < 0 && symsp >= 0) space = symsp;        /* generic access to a known symbol */
    else if (space < 0) space = BC_SP_GENERIC;
    int op = space_op(space, ld);
    if (op < 0) { cc_error(c, NULL, "cannot store to the .%s space", space == BC_SP_CONST ? "const" : "param"); return; }
    int size = tbits(t) / 8;
    if (size <= 0 || size > 8) { cc_error(c, NULL, "unsupported type in '%s'", in->text); return; }
    uint32_t slots[8];
    int n = m->vec;
    if (n > 1) {
        if (v->kind != AST_OPD_VEC || v->nsub != n) { cc_error(c, &v->loc, "'%s' needs a vector of %d registers", in->text, n); return; }
    } else if (v->kind == AST_OPD_VEC) { cc_error(c, &v->loc, "unexpected vector operand"); return; }
    int dbytes = size;
    for (int k = 0; k < n; k++) {
        const ast_operand *e = n > 1 ? v->sub[k] : v;
        if (ld) {
            slots[k] = dst(c, e);
            int rb = tbits(reg_type(c, e)) / 8;
            if (rb > dbytes) dbytes = rb;
        } else slots[k] = src(c, e, t);
    }
    bc_insn i = blank(op);
    i.a = base;
    i.imm = imm;
    i.n = (uint8_t)n;
    i.m1 = (uint8_t)size;
    i.m2 = (uint8_t)(ld && tsigned(t));
    i.m3 = (uint8_t)(ld ? (dbytes > 8 ? 8 : dbytes) : size);
    if (n == 1) { if (ld) i.d = slots[0]; else i.b = slots[0]; }
    i.x = cc_extra(c, slots, n, 1);
    /* strong accesses (volatile, relaxed, acquire, release) order with fences;
     * the checker treats them alike */
    if (has(m, "volatile") || has(m, "relaxed") || has(m, "acquire") || has(m, "release") || has(m, "acq_rel"))
        i.flags |= BC_IF_VOLATILE;
    cc_emit(c, i);
}

static void cvta(bc_cc *c, const ast_insn *in, const mods *m)
{
    ast_type t = type1(c, m);
    if (!nops(c, in, 2, 2)) return;
    bc_insn i = blank(has(m, "to") ? OP_CVTA_FROM : OP_CVTA_TO);
    i.m1 = (uint8_t)(m->space < 0 ? BC_SP_GLOBAL : m->space);
    i.m2 = (uint8_t)(tbits(t) == 32);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], t);
    cc_emit(c, i);
}

static void isspacep(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (!nops(c, in, 2, 2)) return;
    bc_insn i = blank(OP_ISSPACEP);
    i.m1 = (uint8_t)(m->space < 0 ? BC_SP_GLOBAL : m->space);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], AST_T_U64);
    cc_emit(c, i);
}

static void atom(bc_cc *c, const ast_insn *in, const mods *m, int red)
{
    static const char *const ops[] = { "add", "min", "max", "and", "or", "xor", "inc", "dec", "exch", "cas" };
    if (has(m, "async")) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }   /* with an mbarrier (clusters) */
    ast_type t = type1(c, m);
    int op = -1;
    for (int k = 0; k < 10; k++) if (has(m, ops[k])) op = k;
    if (op < 0) { cc_error(c, NULL, "'%s' needs an operation", in->text); return; }
    int need = (red ? 2 : 3) + (op == BC_RED_CAS);
    if (!nops(c, in, need, need)) return;
    int kind;
    switch (t) {
    case AST_T_S32: kind = BC_K_S32; break;
    case AST_T_U32: case AST_T_B32: kind = BC_K_U32; break;
    case AST_T_S64: kind = BC_K_S64; break;
    case AST_T_U64: case AST_T_B64: kind = BC_K_U64; break;
    case AST_T_F32: kind = BC_K_F32; break;
    case AST_T_F64: kind = BC_K_F64; break;
    case AST_T_F16: kind = BC_K_F16; break;
    case AST_T_F16X2: kind = BC_K_F16X2; break;
    case AST_T_BF16: kind = BC_K_BF16; break;
    case AST_T_BF16X2: kind = BC_K_BF16X2; break;
    default: cc_error(c, NULL, "unsupported type in '%s'", in->text); return;
    }
    if (m->vec > 1) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
    bc_insn i = blank(OP_ATOM);
    int k = 0;
    if (!red) i.d = dst(c, in->opds[k++]);
    else i.d = cc_hidden(CC_HID_SINK);
    uint32_t base; int64_t imm; int symsp;
    addr(c, in->opds[k++], &base, &imm, &symsp);
    i.a = base;
    i.imm = imm;
    i.m3 = (uint8_t)(m->space >= 0 ? m->space : symsp >= 0 ? symsp : BC_SP_GENERIC);
    if (i.m3 == BC_SP_CONST || i.m3 == BC_SP_KPARAM || i.m3 == BC_SP_LOCAL) { cc_error(c, NULL, "atomics are not allowed in that space"); return; }
    i.b = src(c, in->opds[k++], t);
    if (op == BC_RED_CAS) i.c = src(c, in->opds[k++], t);
    i.m1 = (uint8_t)op;
    i.m2 = (uint8_t)kind;
    i.n = (uint8_t)!red;
    if (!has(m, "noftz") && m->space != BC_SP_SHARED) i.flags |= BC_IF_FTZ;
    cc_emit(c, i);
}

/* ---- control ------------------------------------------------------------- */

/* A one-register ld/st.local at FP + off. */
static void frame_access(bc_cc *c, int op, uint32_t slot, int off, int size)
{
    bc_insn i = blank(op);
    if (op == OP_LD_LOCAL) i.d = slot; else i.b = slot;
    i.a = cc_hidden(CC_HID_FP);
    i.imm = off;
    i.n = 1;
    i.m1 = i.m3 = (uint8_t)(size > 8 ? 8 : size);
    i.x = cc_extra(c, &slot, 1, 1);
    cc_emit(c, i);
}

void cc_frame_ld(bc_cc *c, uint32_t slot, int off, int size) { frame_access(c, OP_LD_LOCAL, slot, off, size); }
void cc_frame_st(bc_cc *c, int off, uint32_t slot, int size) { frame_access(c, OP_ST_LOCAL, slot, off, size); }

/* ret: a .func with .reg results stores them into its frame first. */
static void ret(bc_cc *c, const ast_insn *in)
{
    if (!nops(c, in, 0, 0)) return;
    const ast_func *f = c->afn;
    for (int k = 0; f && k < f->nrets; k++) {
        if (f->rets[k].space != AST_SPACE_REG) continue;
        ast_operand o;
        memset(&o, 0, sizeof o);
        o.kind = AST_OPD_REG;
        o.name = f->rets[k].name;
        o.loc = c->st ? c->st->loc : o.loc;
        cc_frame_st(c, c->fn->rets[k].offset, cc_reg_lookup(c, &o, NULL), c->fn->rets[k].size);
    }
    cc_emit(c, blank(OP_RET));
}

static void bra(bc_cc *c, const ast_insn *in)
{
    if (!nops(c, in, 1, 1)) return;
    const ast_operand *t = in->opds[0];
    if (t->kind != AST_OPD_SYM) { cc_error(c, &t->loc, "bra needs a label"); return; }
    bc_insn i = blank(OP_BRA);
    uint32_t pc = cc_emit(c, i);
    cc_fixup_label(c, pc, t->name, t->loc, 0);
}

static void brx(bc_cc *c, const ast_insn *in)
{
    if (!nops(c, in, 2, 2)) return;
    const ast_operand *t = in->opds[1];
    if (t->kind != AST_OPD_SYM) { cc_error(c, &t->loc, "brx.idx needs a .branchtargets label"); return; }
    bc_insn i = blank(OP_BRX);
    i.a = src(c, in->opds[0], AST_T_U32);
    uint32_t pc = cc_emit(c, i);
    cc_fixup_label(c, pc, t->name, t->loc, 0);
}

/* call: rets and args are frame variables of the caller; the callee's
 * params/rets sit at the offsets of its signature in its new frame.
 * extra[x]: nargs, nrets, caller frame size, then per arg (src off, dst
 * off, size) and per ret (dst off, src off, size). */
static void call(bc_cc *c, const ast_insn *in)
{
    const ast_operand *rets = NULL, *fn = NULL, *args = NULL;
    int k = 0;
    if (k < in->nopds && in->opds[k]->kind == AST_OPD_LIST) rets = in->opds[k++];
    if (k < in->nopds) fn = in->opds[k++];
    if (k < in->nopds && in->opds[k]->kind == AST_OPD_LIST) args = in->opds[k++];
    if (!fn) { cc_error(c, NULL, "call needs a function"); return; }
    int nrets = rets ? rets->nsub : 0, nargs = args ? args->nsub : 0;
    const bc_func *callee = NULL;
    int fidx = -1;
    bc_insn i = blank(OP_CALL);
    if (fn->kind == AST_OPD_SYM) {
        const cc_sym *s = cc_sym_lookup(c, fn->name);
        if (!s || s->kind != CC_SYM_FUNC) { cc_error(c, &fn->loc, "call to undefined function '%s'", fn->name); return; }
        fidx = s->idx;
        callee = cc_func(c, fidx);
        i.imm = fidx;
        if (callee->kind == BC_FN_BUILTIN) i.op = OP_CALL_BUILTIN;
        else if (callee->kind == BC_FN_EXTERN) i.op = OP_CALL_FFI;
        if (nargs != callee->nparams || nrets != callee->nrets) {
            cc_error(c, &fn->loc, "call to '%s' passes %d arguments and %d results; it takes %d and %d",
                     fn->name, nargs, nrets, callee->nparams, callee->nrets);
            return;
        }
    } else if (fn->kind == AST_OPD_REG) {
        i.op = OP_CALLI;
        i.a = src(c, fn, AST_T_U64);
    } else { cc_error(c, &fn->loc, "bad call target"); return; }
    uint32_t v[3 + 3 * 64];
    if (nargs + nrets > 64) { cc_error(c, NULL, "too many call arguments"); return; }
    v[0] = (uint32_t)nargs; v[1] = (uint32_t)nrets; v[2] = 0;
    int n = 3;
    struct { uint32_t slot; int off, size; } back[64];   /* register results to load after the call */
    int nback = 0;
    for (int j = 0; j < nargs + nrets; j++) {
        const ast_operand *o = j < nargs ? args->sub[j] : rets->sub[j - nargs];
        const cc_sym *s = o->kind == AST_OPD_SYM ? cc_sym_lookup(c, o->name) : NULL;
        cc_sym tmp;
        if (!s && o->kind != AST_OPD_SYM && o->kind != AST_OPD_SINK) {
            /* a register or immediate (.reg parameters): through a frame temporary */
            const bc_param *cp = callee ? (j < nargs ? &callee->params[j] : &callee->rets[j - nargs]) : NULL;
            ast_type t = cp ? cp->type : reg_type(c, o);
            int size = cp ? cp->size : ast_type_size(t);
            if (size <= 0 || size > 8) { cc_error(c, &o->loc, "this call argument cannot be passed in a register"); return; }
            memset(&tmp, 0, sizeof tmp);
            tmp.kind = CC_SYM_FRAME;
            tmp.offset = cc_frame_tmp(c, size);
            tmp.size = size;
            if (j < nargs) cc_frame_st(c, (int)tmp.offset, src(c, o, t), size);
            else if (o->kind == AST_OPD_REG) { back[nback].slot = dst(c, o); back[nback].off = (int)tmp.offset; back[nback++].size = size; }
            else { cc_error(c, &o->loc, "a call result must be a register or a .param variable"); return; }
            s = &tmp;
        }
        if (!s || s->kind != CC_SYM_FRAME) {
            cc_error(c, &o->loc, "call arguments must be .param variables declared in the caller, or registers");
            return;
        }
        int size = s->size;
        int coff = callee ? (j < nargs ? callee->params[j].offset : callee->rets[j - nargs].offset) : -1;
        if (callee) {
            int csz = j < nargs ? callee->params[j].size : callee->rets[j - nargs].size;
            if (csz < size) size = csz;
        }
        v[n++] = (uint32_t)s->offset;
        v[n++] = (uint32_t)coff;
        v[n++] = (uint32_t)size;
    }
    i.x = cc_extra(c, v, n, 0);
    uint32_t pc = cc_emit(c, i);
    /* the caller's frame size is known only at the end of its body */
    cc_note_frame_patch(c, c->code.v[pc].x + 2);
    for (int k = 0; k < nback; k++) cc_frame_ld(c, back[k].slot, back[k].off, back[k].size);
}

/* ---- warp collectives and barriers ------------------------------------------ */

static uint32_t mask_src(bc_cc *c, const ast_operand *o) { return src(c, o, AST_T_B32); }

static void shfl(bc_cc *c, const ast_insn *in, const mods *m)
{
    static const char *const modes[] = { "up", "down", "bfly", "idx" };
    if (!has(m, "sync")) { cc_error(c, NULL, "'%s' without .sync is not supported on sm_70 and later", in->text); return; }
    if (!nops(c, in, 5, 5)) return;
    bc_insn i = blank(OP_SHFL);
    for (int k = 0; k < 4; k++) if (has(m, modes[k])) i.m1 = (uint8_t)k;
    const ast_operand *d = in->opds[0];
    if (d->kind == AST_OPD_PAIR) { i.d = dst(c, d->sub[0]); i.e = dst(c, d->sub[1]); i.flags |= BC_IF_HAS_E; }
    else i.d = dst(c, d);
    i.a = src(c, in->opds[1], AST_T_B32);
    i.b = src(c, in->opds[2], AST_T_B32);
    i.c = src(c, in->opds[3], AST_T_B32);
    i.x = mask_src(c, in->opds[4]);
    cc_emit(c, i);
}

static void vote(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (!has(m, "sync")) { cc_error(c, NULL, "'%s' without .sync is not supported on sm_70 and later", in->text); return; }
    if (!nops(c, in, 3, 3)) return;
    int o = has(m, "all") ? OP_VOTE_ALL : has(m, "any") ? OP_VOTE_ANY : has(m, "uni") ? OP_VOTE_UNI : OP_VOTE_BALLOT;
    bc_insn i = blank(o);
    i.d = dst(c, in->opds[0]);
    const ast_operand *p = in->opds[1];
    if (p->kind == AST_OPD_REG && p->neg) {
        ast_operand q = *p;
        q.neg = 0;
        i.a = src(c, &q, AST_T_PRED);
        i.flags |= BC_IF_NEG;
    } else i.a = src(c, p, AST_T_PRED);
    i.x = mask_src(c, in->opds[2]);
    cc_emit(c, i);
}

static void match(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (!nops(c, in, 3, 3)) return;
    ast_type t = type1(c, m);
    bc_insn i = blank(has(m, "all") ? OP_MATCH_ALL : OP_MATCH_ANY);
    const ast_operand *d = in->opds[0];
    if (d->kind == AST_OPD_PAIR) { i.d = dst(c, d->sub[0]); i.e = dst(c, d->sub[1]); i.flags |= BC_IF_HAS_E; }
    else i.d = dst(c, d);
    i.a = src(c, in->opds[1], t);
    i.m2 = (uint8_t)(tbits(t) == 64);
    i.x = mask_src(c, in->opds[2]);
    cc_emit(c, i);
}

static void redux(bc_cc *c, const ast_insn *in, const mods *m)
{
    static const char *const ops[] = { "add", "min", "max", "and", "or", "xor" };
    if (!nops(c, in, 3, 3)) return;
    ast_type t = type1(c, m);
    if (tfloat(t)) { cc_error(c, NULL, "'%s' is not supported on sm_90", in->text); return; }
    bc_insn i = blank(OP_REDUX);
    for (int k = 0; k < 6; k++) if (has(m, ops[k])) i.m1 = (uint8_t)k;
    i.m2 = (uint8_t)(tsigned(t) ? BC_K_S32 : BC_K_U32);
    i.d = dst(c, in->opds[0]);
    i.a = src(c, in->opds[1], t);
    i.x = mask_src(c, in->opds[2]);
    cc_emit(c, i);
}

static void elect(bc_cc *c, const ast_insn *in)
{
    if (!nops(c, in, 2, 2)) return;
    bc_insn i = blank(OP_ELECT);
    const ast_operand *d = in->opds[0];
    if (d->kind == AST_OPD_PAIR) { i.d = dst(c, d->sub[0]); i.e = dst(c, d->sub[1]); i.flags |= BC_IF_HAS_E; }
    else i.d = dst(c, d);
    i.x = mask_src(c, in->opds[1]);
    cc_emit(c, i);
}

static void bar_id_check(bc_cc *c, const ast_operand *o, int count)
{
    if (o->kind != AST_OPD_INT) return;
    if (!count && (o->ival < 0 || o->ival > 15)) cc_error(c, &o->loc, "barrier id %lld is out of range (0..15)", (long long)o->ival);
    if (count && (o->ival <= 0 || o->ival % 32 || o->ival > 1024))
        cc_error(c, &o->loc, "barrier thread count %lld must be a positive multiple of 32 (at most 1024)", (long long)o->ival);
}

/* bar/barrier .sync/.arrive/.red, and bar.warp.sync */
static void barrier(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (has(m, "warp")) {
        if (!nops(c, in, 1, 1)) return;
        bc_insn i = blank(OP_WARPSYNC);
        i.x = mask_src(c, in->opds[0]);
        cc_emit(c, i);
        return;
    }
    if (has(m, "cluster")) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
    bc_insn i = blank(OP_BAR);
    int kind = has(m, "arrive") ? 1 : has(m, "red") ? (has(m, "popc") ? 2 : has(m, "and") ? 3 : 4) : 0;
    i.m1 = (uint8_t)kind;
    if (!strcmp(in->op, "bar") || has(m, "aligned")) i.flags |= BC_IF_ALIGNED;
    int k = 0;
    if (kind >= 2) {
        if (!nops(c, in, 3, 4)) return;
        i.d = dst(c, in->opds[k++]);
    } else if (!nops(c, in, kind == 1 ? 2 : 1, 2)) return;
    bar_id_check(c, in->opds[k], 0);
    i.a = src(c, in->opds[k++], AST_T_U32);
    int left = in->nopds - k - (kind >= 2);
    if (left > 0) { bar_id_check(c, in->opds[k], 1); i.b = src(c, in->opds[k++], AST_T_U32); i.n = 1; }
    else i.b = cc_const(c, 0);
    if (kind >= 2) {
        const ast_operand *p = in->opds[k];
        if (p->kind == AST_OPD_REG && p->neg) {
            ast_operand q = *p;
            q.neg = 0;
            i.c = src(c, &q, AST_T_PRED);
            i.flags |= BC_IF_NEG;
        } else i.c = src(c, p, AST_T_PRED);
    }
    cc_emit(c, i);
}

static void simple(bc_cc *c, const ast_insn *in, int op, int n)
{
    if (!nops(c, in, 0, n)) return;
    cc_emit(c, blank(op));
}


/* ---- matrix collectives (tensor cores) -------------------------------------------- */

static int mma_t(ast_type t)
{
    switch (t) {
    case AST_T_F16: case AST_T_F16X2: return MMA_T_F16;
    case AST_T_BF16: case AST_T_BF16X2: return MMA_T_BF16;
    case AST_T_TF32: return MMA_T_TF32;
    case AST_T_F32: return MMA_T_F32;
    case AST_T_F64: return MMA_T_F64;
    case AST_T_S8: return MMA_T_S8;
    case AST_T_U8: return MMA_T_U8;
    case AST_T_S32: return MMA_T_S32;
    default: return -1;
    }
}

/* Appends the registers of a {..} list (or one register) to v; returns how many, -1 on error. */
static int mma_regs_of(bc_cc *c, const ast_operand *o, uint32_t *v, int want, int isdst)
{
    int n = o->kind == AST_OPD_VEC ? o->nsub : 1;
    if (n != want) { cc_error(c, &o->loc, "expected %d registers here, not %d", want, n); return -1; }
    for (int k = 0; k < n; k++) {
        const ast_operand *e = o->kind == AST_OPD_VEC ? o->sub[k] : o;
        v[k] = isdst ? dst(c, e) : src(c, e, AST_T_B32);
    }
    return n;
}

/* Emits op with the operand list nd, na, nb, nc, slots... */
static void mma_emit(bc_cc *c, bc_insn i, const uint32_t cnt[4], const uint32_t *slots)
{
    uint32_t v[4 + 40];
    int n = (int)(cnt[0] + cnt[1] + cnt[2] + cnt[3]);
    for (int k = 0; k < 4; k++) v[k] = cnt[k];
    for (int k = 0; k < n; k++) v[4 + k] = slots[k];
    i.x = cc_extra(c, v, 4 + n, 1);
    cc_emit(c, i);
}

/* An address operand as one slot (base + offset folded into imm). */
static uint32_t mma_addr(bc_cc *c, const ast_operand *o, int64_t *imm, int *space, const mods *m)
{
    uint32_t base; int symsp;
    addr(c, o, &base, imm, &symsp);
    *space = m->space >= 0 ? m->space : symsp >= 0 ? symsp : BC_SP_GENERIC;
    return base;
}

static void matrix_insn(bc_cc *c, const ast_insn *in, const mods *m, const char *op)
{
    uint32_t cnt[4] = { 0, 0, 0, 0 }, sl[40];
    if (!strcmp(op, "ldmatrix") || !strcmp(op, "stmatrix")) {
        int ld = op[0] == 'l';
        int nm = has(m, "x4") ? 4 : has(m, "x2") ? 2 : 1;
        if (!has(m, "m8n8") || !nops(c, in, 2, 2)) { if (!has(m, "m8n8")) cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        bc_insn i = blank(ld ? OP_LDMATRIX : OP_STMATRIX);
        int space;
        int64_t imm;
        uint32_t a = mma_addr(c, in->opds[ld ? 1 : 0], &imm, &space, m);
        if (space != BC_SP_SHARED && space != BC_SP_GENERIC) { cc_error(c, NULL, "'%s' needs a shared address", in->text); return; }
        if (ld) {
            if (mma_regs_of(c, in->opds[0], sl, nm, 1) < 0) return;
            sl[nm] = a; cnt[0] = (uint32_t)nm; cnt[1] = 1;
        } else {
            sl[0] = a;
            if (mma_regs_of(c, in->opds[1], sl + 1, nm, 0) < 0) return;
            cnt[1] = 1; cnt[2] = (uint32_t)nm;
        }
        i.m1 = (uint8_t)nm; i.m2 = (uint8_t)has(m, "trans"); i.m3 = (uint8_t)space; i.imm = imm;
        mma_emit(c, i, cnt, sl);
        return;
    }
    if (!strcmp(op, "movmatrix")) {
        if (!has(m, "m8n8") || !has(m, "trans") || !nops(c, in, 2, 2)) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        bc_insn i = blank(OP_MOVMATRIX);
        if (mma_regs_of(c, in->opds[0], sl, 1, 1) < 0 || mma_regs_of(c, in->opds[1], sl + 1, 1, 0) < 0) return;
        cnt[0] = cnt[1] = 1;
        mma_emit(c, i, cnt, sl);
        return;
    }
    mma_desc d;
    memset(&d, 0, sizeof d);
    int wmma = !strcmp(op, "wmma");
    d.shape = has(m, "m16n8k16") ? MMA_M16N8K16 : has(m, "m16n8k8") ? MMA_M16N8K8 : has(m, "m8n8k4") ? MMA_M8N8K4
            : has(m, "m16n8k32") ? MMA_M16N8K32 : has(m, "m16n16k16") ? MMA_M16N16K16 : has(m, "m16n16k8") ? MMA_M16N16K8 : -1;
    int wshape = d.shape == MMA_M16N16K16 || d.shape == MMA_M16N16K8 || d.shape == MMA_M8N8K4;
    if (d.shape < 0 || (wmma ? !wshape : d.shape >= MMA_M16N16K16)) { cc_error(c, NULL, "unsupported instruction '%s' (shape)", in->text); return; }
    if (wmma && (has(m, "load") || has(m, "store"))) {
        int ld = has(m, "load");
        int frag = has(m, "a") ? MMA_FRAG_A : has(m, "b") ? MMA_FRAG_B : MMA_FRAG_C;
        int t = m->nt ? mma_t(m->t[m->nt - 1]) : -1;
        /* a/b: f16, bf16, s8, u8 (m16n16k16), tf32 (m16n16k8), f64 (m8n8k4); c/d: f16, f32, s32,
         * f32, f64 respectively */
        int ok = d.shape == MMA_M16N16K8 ? t == (frag == MMA_FRAG_C ? MMA_T_F32 : MMA_T_TF32)
               : d.shape == MMA_M8N8K4 ? t == MMA_T_F64
               : frag == MMA_FRAG_C ? t == MMA_T_F32 || t == MMA_T_F16 || t == MMA_T_S32
               : t == MMA_T_F16 || t == MMA_T_BF16 || t == MMA_T_S8 || t == MMA_T_U8;
        if (!ok || !nops(c, in, 2, 3)) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        mma_desc q = { .shape = d.shape, .at = t, .bt = t, .ct = t, .dt = t };
        int qd, qa, qb, qc;
        mma_regs(&q, &qd, &qa, &qb, &qc);
        int nregs = frag == MMA_FRAG_A ? qa : frag == MMA_FRAG_B ? qb : qc;
        bc_insn i = blank(ld ? OP_WMMA_LOAD : OP_WMMA_STORE);
        int space;
        int64_t imm;
        uint32_t a = mma_addr(c, in->opds[ld ? 1 : 0], &imm, &space, m);
        uint32_t ldm = in->nopds == 3 ? src(c, in->opds[2], AST_T_U32) : cc_const(c, 16);
        if (ld) {
            if (mma_regs_of(c, in->opds[0], sl, nregs, 1) < 0) return;
            sl[nregs] = a; sl[nregs + 1] = ldm;
            cnt[0] = (uint32_t)nregs; cnt[1] = 1; cnt[2] = 1;
        } else {
            sl[0] = a; sl[1] = ldm;
            if (mma_regs_of(c, in->opds[1], sl + 2, nregs, 0) < 0) return;
            cnt[1] = 1; cnt[2] = 1; cnt[3] = (uint32_t)nregs;
        }
        i.m1 = (uint8_t)frag; i.m2 = (uint8_t)(t | has(m, "col") << 4); i.m3 = (uint8_t)space; i.imm = imm;
        i.n = (uint8_t)d.shape;
        mma_emit(c, i, cnt, sl);
        return;
    }
    /* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype; wmma.mma: .alayout.blayout.shape.dtype.ctype */
    if (wmma) {
        /* .dtype.ctype (f16 operands), or .dtype.atype.btype.ctype */
        if (m->nt != 2 && m->nt != 4) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        d.dt = mma_t(m->t[0]); d.ct = mma_t(m->t[m->nt - 1]);
        d.at = m->nt == 4 ? mma_t(m->t[1]) : MMA_T_F16;
        d.bt = m->nt == 4 ? mma_t(m->t[2]) : MMA_T_F16;
        int first = -1;
        for (int k = 0; k < in->nmods; k++)
            if (!strcmp(in->mods[k], "row") || !strcmp(in->mods[k], "col")) {
                int col = in->mods[k][0] == 'c';
                mark_used(m, k);
                if (first < 0) { first = k; d.a_col = col; } else d.b_row = !col;
            }
    } else {
        if (m->nt != 4 || !has(m, "row") || !has(m, "col")) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
        d.dt = mma_t(m->t[0]); d.at = mma_t(m->t[1]); d.bt = mma_t(m->t[2]); d.ct = mma_t(m->t[3]);
    }
    d.satfinite = has(m, "satfinite");
    int ok = d.dt >= 0 && d.at >= 0 && d.bt >= 0 && d.ct >= 0;
    if (ok) {
        int fa = d.at <= MMA_T_TF32, ia = d.at == MMA_T_S8 || d.at == MMA_T_U8;
        int ints = ia && (d.bt == MMA_T_S8 || d.bt == MMA_T_U8) && d.ct == MMA_T_S32 && d.dt == MMA_T_S32;
        switch (d.shape) {
        case MMA_M16N8K16: case MMA_M16N16K16:
            ok = ((d.at == MMA_T_F16 || d.at == MMA_T_BF16) && d.bt == d.at &&
                  ((d.ct == MMA_T_F32 && d.dt == MMA_T_F32) || (d.at == MMA_T_F16 && (d.ct == MMA_T_F16 || d.ct == MMA_T_F32) && (d.dt == MMA_T_F16 || d.dt == MMA_T_F32)))) ||
                 (d.shape == MMA_M16N16K16 && ints);
            break;
        case MMA_M16N8K8: case MMA_M16N16K8:
            ok = fa && d.bt == d.at && ((d.ct == MMA_T_F32 && d.dt == MMA_T_F32) || (d.at == MMA_T_F16 && (d.ct == MMA_T_F16 || d.ct == MMA_T_F32) && (d.dt == MMA_T_F16 || d.dt == MMA_T_F32)));
            break;
        case MMA_M8N8K4: ok = d.at == MMA_T_F64 && d.bt == MMA_T_F64 && d.ct == MMA_T_F64 && d.dt == MMA_T_F64; break;
        default: ok = ints; break;
        }
    }
    if (!ok) { cc_error(c, NULL, "unsupported instruction '%s' (types)", in->text); return; }
    int nd, na, nb, nc;
    mma_regs(&d, &nd, &na, &nb, &nc);
    if (!nops(c, in, 4, 4)) return;
    int k = 0;
    if (mma_regs_of(c, in->opds[0], sl + k, nd, 1) < 0) return;
    k += nd;
    if (mma_regs_of(c, in->opds[1], sl + k, na, 0) < 0) return;
    k += na;
    if (mma_regs_of(c, in->opds[2], sl + k, nb, 0) < 0) return;
    k += nb;
    if (mma_regs_of(c, in->opds[3], sl + k, nc, 0) < 0) return;
    cnt[0] = (uint32_t)nd; cnt[1] = (uint32_t)na; cnt[2] = (uint32_t)nb; cnt[3] = (uint32_t)nc;
    bc_insn i = blank(wmma ? OP_WMMA_MMA : OP_MMA);
    i.m1 = (uint8_t)d.shape; i.m2 = (uint8_t)(d.at | d.bt << 4); i.m3 = (uint8_t)(d.ct | d.dt << 4);
    if (d.satfinite) i.flags |= BC_IF_SAT;
    i.imm = d.a_col | d.b_row << 1;
    mma_emit(c, i, cnt, sl);
}

/* ---- asynchronous copies and mbarriers -------------------------------------------- */

static void cp_async(bc_cc *c, const ast_insn *in, const mods *m)
{
    if (has(m, "commit_group")) { if (nops(c, in, 0, 0)) cc_emit(c, blank(OP_CP_ASYNC_COMMIT)); return; }
    if (has(m, "wait_group") || has(m, "wait_all")) {
        bc_insn i = blank(OP_CP_ASYNC_WAIT);
        i.m1 = (uint8_t)has(m, "wait_all");
        if (!nops(c, in, !i.m1, !i.m1)) return;
        if (!i.m1) i.imm = in->opds[0]->ival;
        cc_emit(c, i);
        return;
    }
    if (has(m, "bulk") || has(m, "tensor")) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
    if (has(m, "mbarrier")) {
        if (!nops(c, in, 1, 1)) return;
        bc_insn i = blank(OP_CP_ASYNC_MBAR);
        int space;
        i.a = mma_addr(c, in->opds[0], &i.imm, &space, m);
        i.m3 = (uint8_t)space;
        i.m1 = (uint8_t)has(m, "noinc");
        i.d = cc_hidden(CC_HID_SINK);
        cc_emit(c, i);
        return;
    }
    if (!nops(c, in, 3, 5)) return;
    const ast_operand *sz = in->opds[2];
    if (sz->kind != AST_OPD_INT || (sz->ival != 4 && sz->ival != 8 && sz->ival != 16) || (has(m, "cg") && sz->ival != 16)) {
        cc_error(c, &sz->loc, "cp.async copies 4, 8 or 16 bytes (.cg: 16)");
        return;
    }
    bc_insn i = blank(OP_CP_ASYNC);
    int symsp;
    uint32_t sb;
    int64_t simm;
    i.a = mma_addr(c, in->opds[0], &i.imm, &symsp, m);
    addr(c, in->opds[1], &sb, &simm, &symsp);
    if (simm) {
        uint32_t t = cc_new_reg(c);
        bc_insn ad = blank(OP_ADD_64);
        ad.d = t; ad.a = sb; ad.b = cc_const(c, (uint64_t)simm);
        cc_emit(c, ad);
        sb = t;
    }
    i.b = sb;
    i.m1 = (uint8_t)sz->ival;
    i.m3 = BC_SP_SHARED;
    i.d = cc_hidden(CC_HID_SINK);
    if (in->nopds >= 4 && reg_type(c, in->opds[3]) == AST_T_PRED) { cc_error(c, NULL, "unsupported instruction '%s' (ignore-src)", in->text); return; }
    i.c = in->nopds >= 4 ? src(c, in->opds[3], AST_T_U32) : cc_const(c, (uint64_t)sz->ival);
    cc_emit(c, i);
}

static void mbarrier(bc_cc *c, const ast_insn *in, const mods *m)
{
    bc_insn i = blank(OP_NOP);
    int space;
    i.d = cc_hidden(CC_HID_SINK);
    if (has(m, "pending_count")) {
        if (!nops(c, in, 2, 2)) return;
        i.op = OP_MBAR_PENDING;
        i.d = dst(c, in->opds[0]);
        i.a = src(c, in->opds[1], AST_T_B64);
        cc_emit(c, i);
        return;
    }
    if (has(m, "init") || has(m, "inval") || has(m, "expect_tx") || has(m, "complete_tx")) {
        if (has(m, "arrive")) goto arrive;
        int one = has(m, "inval");
        if (!nops(c, in, one ? 1 : 2, one ? 1 : 2)) return;
        i.op = (uint16_t)(has(m, "init") ? OP_MBAR_INIT : one ? OP_MBAR_INVAL : OP_MBAR_TX);
        i.m1 = (uint8_t)has(m, "complete_tx");
        i.a = mma_addr(c, in->opds[0], &i.imm, &space, m);
        i.m3 = (uint8_t)space;
        i.b = one ? cc_const(c, 0) : src(c, in->opds[1], AST_T_U32);
        cc_emit(c, i);
        return;
    }
    if (has(m, "test_wait") || has(m, "try_wait")) {
        if (!nops(c, in, 3, 4)) return;
        i.op = OP_MBAR_WAIT;
        i.m1 = (uint8_t)has(m, "parity");
        i.m2 = (uint8_t)has(m, "try_wait");
        i.d = dst(c, in->opds[0]);
        i.a = mma_addr(c, in->opds[1], &i.imm, &space, m);
        i.m3 = (uint8_t)space;
        i.b = src(c, in->opds[2], i.m1 ? AST_T_U32 : AST_T_B64);
        cc_emit(c, i);
        return;
    }
    if (!has(m, "arrive") && !has(m, "arrive_drop")) { cc_error(c, NULL, "unsupported instruction '%s'", in->text); return; }
arrive:
    if (!nops(c, in, 2, 3)) return;
    i.op = OP_MBAR_ARRIVE;
    i.m1 = (uint8_t)has(m, "arrive_drop");
    i.m2 = (uint8_t)has(m, "noComplete");
    i.d = dst(c, in->opds[0]);
    i.a = mma_addr(c, in->opds[1], &i.imm, &space, m);
    i.m3 = (uint8_t)space;
    if (has(m, "expect_tx")) {
        if (!nops(c, in, 3, 3)) return;
        i.c = src(c, in->opds[2], AST_T_U32);
        i.b = cc_const(c, 1);
    } else {
        i.c = cc_const(c, 0);
        i.b = in->nopds == 3 ? src(c, in->opds[2], AST_T_U32) : cc_const(c, 1);
    }
    cc_emit(c, i);
}

/* ---- dispatch on the mnemonic ------------------------------------------------ */

void cc_insn(bc_cc *c, const ast_insn *in, const ast_stmt *st)
{
    mods m;
    uint64_t used;
    int errors = c->nerrors;
    parse_mods(in, &m, &used);
    const char *op = in->op;
    size_t before = c->code.n;
    (void)st;
    /* the most frequent mnemonics first (no other branch below tests these names, so the
     * order decides nothing but how many strcmp a statement takes) */
    if (!strcmp(op, "st")) ldst(c, in, &m, 0);
    else if (!strcmp(op, "ld") || !strcmp(op, "ldu")) ldst(c, in, &m, 1);
    else if (!strcmp(op, "mov")) mov(c, in, &m);
    else if (!strcmp(op, "setp")) setp(c, in, &m);
    else if (!strcmp(op, "bra")) bra(c, in);
    else if (!strcmp(op, "cvt")) cvt(c, in, &m);
    else if (!strcmp(op, "cvta")) cvta(c, in, &m);
    else if ((!strcmp(op, "min") || !strcmp(op, "max") || !strcmp(op, "add") || !strcmp(op, "sub")) &&
        (has(&m, "u16x2") || has(&m, "s16x2"))) {
        /* SIMD on two 16-bit integers */
        if (nops(c, in, 3, 3)) {
            bc_insn i = blank(op[0] == 'm' ? OP_MINMAX_16X2 : OP_ADDSUB_16X2);   /* min/max or add/sub */
            i.m1 = (uint8_t)(!strcmp(op, "max") || !strcmp(op, "sub"));
            i.m2 = (uint8_t)has(&m, "s16x2");
            if (has(&m, "relu")) i.flags |= BC_IF_RELU;
            if (has(&m, "sat")) i.flags |= BC_IF_SAT;
            i.d = dst(c, in->opds[0]);
            i.a = src(c, in->opds[1], AST_T_B32);
            i.b = src(c, in->opds[2], AST_T_B32);
            cc_emit(c, i);
        }
    }
    else if ((!strcmp(op, "min") || !strcmp(op, "max")) && (has(&m, "xorsign") || (has(&m, "relu") && m.nt && tfloat(m.t[0]))))
        cc_error(c, NULL, "unsupported instruction '%s'", in->text);   /* not computed: an error, not a plain min/max */
    else if ((!strcmp(op, "min") || !strcmp(op, "max")) && has(&m, "relu") && m.nt && !tfloat(m.t[0])) {
        /* min/max.relu.s32: the result clamped at zero */
        arith(c, in, &m, op);
        if (c->code.n > before) {
            bc_insn r = blank(OP_MAX_S32);
            r.d = r.a = c->code.v[c->code.n - 1].d;
            r.b = cc_const(c, 0);
            cc_emit(c, r);
        }
    }
    else if (!strcmp(op, "mad") && has(&m, "hi") && has(&m, "sat")) {
        if (m.nt && m.t[0] == AST_T_S32 && nops(c, in, 4, 4)) emit3(c, OP_MADHISAT_S32, in, AST_T_S32, 4);
        else cc_error(c, NULL, "unsupported instruction '%s'", in->text);
    }
    else if (!strcmp(op, "vabsdiff4")) {
        if (m.nt == 3 && nops(c, in, 4, 4) && in->opds[0]->kind == AST_OPD_REG && !strchr(in->opds[1]->name ? in->opds[1]->name : ".", '.')) {
            bc_insn i = blank(OP_VABSDIFF4);
            i.m1 = (uint8_t)tsigned(m.t[1]);
            i.m2 = (uint8_t)tsigned(m.t[2]);
            i.m3 = (uint8_t)has(&m, "add");
            if (has(&m, "sat")) i.flags |= BC_IF_SAT;
            i.d = dst(c, in->opds[0]);
            i.a = src(c, in->opds[1], AST_T_B32);
            i.b = src(c, in->opds[2], AST_T_B32);
            i.c = src(c, in->opds[3], AST_T_B32);
            cc_emit(c, i);
        } else cc_error(c, NULL, "unsupported instruction '%s' (only the plain full-mask form is implemented)", in->text);
    }
    else if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul") || !strcmp(op, "mad") ||
        !strcmp(op, "fma") || !strcmp(op, "div") || !strcmp(op, "rem") || !strcmp(op, "min") ||
        !strcmp(op, "max") || !strcmp(op, "abs") || !strcmp(op, "neg")) arith(c, in, &m, op);
    else if (!strcmp(op, "mul24") || !strcmp(op, "mad24")) {
        ast_type t = type1(c, &m);
        int mad = !strcmp(op, "mad24"), hi = has(&m, "hi"), s = tsigned(t);
        int o = mad ? (hi ? OP_MAD24HI_S32 : OP_MAD24_S32) : (hi ? OP_MUL24HI_S32 : OP_MUL24_S32);
        if (tbits(t) != 32 || has(&m, "sat")) cc_error(c, NULL, "unsupported instruction '%s'", in->text);
        else if (nops(c, in, mad ? 4 : 3, mad ? 4 : 3)) emit3(c, o + !s, in, t, mad ? 4 : 3);
    }
    else if (!strcmp(op, "addc") || !strcmp(op, "subc") || !strcmp(op, "madc")) carry(c, in, &m, op);
    else if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "not") ||
             !strcmp(op, "cnot")) logic(c, in, &m, op);
    else if (!strcmp(op, "shl") || !strcmp(op, "shr")) shift(c, in, &m, op);
    else if (!strcmp(op, "popc") || !strcmp(op, "clz") || !strcmp(op, "brev") || !strcmp(op, "bfind") ||
             !strcmp(op, "bfe") || !strcmp(op, "bfi") || !strcmp(op, "bmsk") || !strcmp(op, "fns") ||
             !strcmp(op, "szext")) bits(c, in, &m, op);
    else if (!strcmp(op, "prmt")) prmt(c, in, &m);
    else if (!strcmp(op, "lop3")) lop3(c, in);
    else if (!strcmp(op, "shf")) shf(c, in, &m);
    else if (!strcmp(op, "sad") || !strcmp(op, "dp4a") || !strcmp(op, "dp2a")) sad_dp(c, in, &m, op);
    else if (!strcmp(op, "set")) set(c, in, &m);
    else if (!strcmp(op, "selp")) selp(c, in, &m);
    else if (!strcmp(op, "slct")) slct(c, in, &m);
    else if (!strcmp(op, "sqrt") || !strcmp(op, "rcp") || !strcmp(op, "rsqrt") || !strcmp(op, "ex2") ||
             !strcmp(op, "lg2") || !strcmp(op, "sin") || !strcmp(op, "cos") || !strcmp(op, "tanh"))
        fp_unary(c, in, &m, op);
    else if (!strcmp(op, "testp")) testp(c, in, &m);
    else if (!strcmp(op, "copysign")) copysign_insn(c, in, &m);
    else if (!strcmp(op, "isspacep")) isspacep(c, in, &m);
    else if (!strcmp(op, "atom")) atom(c, in, &m, 0);
    else if (!strcmp(op, "red")) atom(c, in, &m, 1);
    else if (!strcmp(op, "membar") || !strcmp(op, "fence")) {
        simple(c, in, OP_FENCE, 0);
        for (int k = 0; k < in->nmods; k++) mark_used(&m, k);   /* every fence orders everything here */
    }
    else if (!strcmp(op, "prefetch") || !strcmp(op, "prefetchu")) { if (nops(c, in, 1, 1)) cc_emit(c, blank(OP_PREFETCH)); }
    else if (!strcmp(op, "brx")) brx(c, in);
    else if (!strcmp(op, "call")) call(c, in);
    else if (!strcmp(op, "ret")) ret(c, in);
    else if (!strcmp(op, "exit")) simple(c, in, OP_EXIT, 0);
    else if (!strcmp(op, "trap")) simple(c, in, OP_TRAP, 0);
    else if (!strcmp(op, "brkpt")) simple(c, in, OP_BRKPT, 0);
    else if (!strcmp(op, "pmevent")) { if (nops(c, in, 1, 1)) cc_emit(c, blank(OP_NOP)); }
    else if (!strcmp(op, "nanosleep")) { if (nops(c, in, 1, 1)) cc_emit(c, blank(OP_NANOSLEEP)); }
    else if (!strcmp(op, "shfl")) shfl(c, in, &m);
    else if (!strcmp(op, "vote")) vote(c, in, &m);
    else if (!strcmp(op, "match")) match(c, in, &m);
    else if (!strcmp(op, "redux")) redux(c, in, &m);
    else if (!strcmp(op, "elect")) elect(c, in);
    else if (!strcmp(op, "activemask")) {
        if (nops(c, in, 1, 1)) { bc_insn i = blank(OP_ACTIVEMASK); i.d = dst(c, in->opds[0]); cc_emit(c, i); }
    }
    else if (!strcmp(op, "bar") || !strcmp(op, "barrier")) barrier(c, in, &m);
    else if (!strcmp(op, "ldmatrix") || !strcmp(op, "stmatrix") || !strcmp(op, "movmatrix") || !strcmp(op, "mma") ||
             !strcmp(op, "wmma")) matrix_insn(c, in, &m, op);
    else if (!strcmp(op, "cp") && has(&m, "async")) cp_async(c, in, &m);
    else if (!strcmp(op, "mbarrier")) mbarrier(c, in, &m);
    else if (!strcmp(op, "griddepcontrol")) { if (nops(c, in, 0, 0)) cc_emit(c, blank(OP_NOP)); }
    else if (!strcmp(op, "setmaxnreg")) { if (nops(c, in, 1, 1)) cc_emit(c, blank(OP_NOP)); }
    else cc_error(c, NULL, "unsupported instruction '%s'", in->text);
    /* a modifier nothing read would be a silent misbehaviour: an error, as an unsupported instruction */
    const char *odd = c->nerrors == errors ? unused_mod(in, used) : NULL;
    if (odd) cc_error(c, NULL, "unsupported modifier '.%s' in '%s'", odd, in->text);
    /* the guard applies to every instruction this statement produced; a
     * guarded sequence (e.g. sreg read + mov) is guarded as a whole, which is
     * harmless since the helper instructions only write scratch registers */
    if (in->guard && c->code.n > before) {
        ast_operand g;
        memset(&g, 0, sizeof g);
        g.kind = AST_OPD_REG;
        g.name = in->guard;
        g.loc = in->guard_loc;
        uint32_t gs = cc_reg_lookup(c, &g, NULL);
        for (size_t k = before; k < c->code.n; k++) {
            c->code.v[k].guard = gs;
            c->code.v[k].gneg = (uint8_t)in->guard_neg;
        }
    }
}
