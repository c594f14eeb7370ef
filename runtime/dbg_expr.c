/* dbg_expr.c — the debugger's expression language (see dbg_expr.h): a
 * recursive-descent evaluator over the engine's state queries. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_expr.h"

typedef struct ectx {
    dbg_session *s;
    vm_warp *w;                  /* NULL: no thread (memory of globals, numbers only) */
    int lane;
    const char *p;
    char err[DBG_EXPR_ERR];
    int has_pc;                  /* the lane is at pc (in a hook, before w->pc is written back) */
    uint32_t pc;
    int has_cta;                 /* the lane's CTA is cta, not the focused one */
    uint64_t cta;
    int phys;                    /* registers of this physical frame (0: the innermost) */
} ectx;

int dbg_type_bits(ast_type t)
{
    switch (t) {
    case AST_T_PRED: return 1;
    case AST_T_B8: case AST_T_U8: case AST_T_S8: return 8;
    case AST_T_B16: case AST_T_U16: case AST_T_S16: case AST_T_F16: case AST_T_BF16: return 16;
    case AST_T_B64: case AST_T_U64: case AST_T_S64: case AST_T_F64: case AST_T_B128: return 64;
    default: return 32;
    }
}

static int is_unsigned(ast_type t) { return t == AST_T_U8 || t == AST_T_U16 || t == AST_T_U32 || t == AST_T_U64 || t == AST_T_PRED; }
static int is_float(ast_type t) { return t == AST_T_F32 || t == AST_T_F64 || t == AST_T_F16 || t == AST_T_BF16; }

static uint64_t mask_bits(uint64_t v, int bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 1023;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(f + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double to_double(dbg_val x)
{
    int b = dbg_type_bits(x.t);
    uint64_t v = mask_bits(x.v, b);
    if (x.t == AST_T_F32) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
    if (x.t == AST_T_F64) { double d; memcpy(&d, &v, 8); return d; }
    if (x.t == AST_T_F16) return half_to_double((uint16_t)v);
    if (x.t == AST_T_BF16) { float f; uint32_t u = (uint32_t)v << 16; memcpy(&f, &u, 4); return f; }
    if (is_unsigned(x.t)) return (double)v;
    return (double)(b >= 64 ? (int64_t)v : (int64_t)(v << (64 - b)) >> (64 - b));
}

int64_t dbg_to_int(dbg_val x)
{
    if (is_float(x.t)) {               /* as cvt.rzi.s64: NaN 0, out of range the nearest end */
        double d = to_double(x);
        if (d != d) return 0;
        if (d >= 0x1p63) return INT64_MAX;
        if (d < -0x1p63) return INT64_MIN;
        return (int64_t)d;
    }
    int b = dbg_type_bits(x.t);
    uint64_t v = mask_bits(x.v, b);
    if (is_unsigned(x.t) || b >= 64) return (int64_t)v;
    return (int64_t)(v << (64 - b)) >> (64 - b);
}

/* "value (0xbits)": decimal first, then hex; floats as value and bits. */
void dbg_fmt_val(dbg_val x, int brief, char *buf, size_t len)
{
    int b = dbg_type_bits(x.t);
    uint64_t v = mask_bits(x.v, b);
    int hd = b < 8 ? 1 : b / 4;
    if (x.t == AST_T_PRED) { snprintf(buf, len, "%d", (int)(v & 1)); return; }
    if (x.t == AST_T_F16X2 || x.t == AST_T_BF16X2) {
        dbg_val lo = { v & 0xffff, x.t == AST_T_F16X2 ? AST_T_F16 : AST_T_BF16 }, hi = { v >> 16, lo.t };
        if (brief) snprintf(buf, len, "{%g, %g}", to_double(lo), to_double(hi));
        else snprintf(buf, len, "{%g, %g} (0x%08" PRIx64 ")", to_double(lo), to_double(hi), v);
        return;
    }
    if (is_float(x.t)) {
        double d = to_double(x);
        const char *fm = x.t == AST_T_F64 ? "%.17g" : "%.9g";
        char num[64];
        snprintf(num, sizeof num, fm, d);
        if (brief) snprintf(buf, len, "%s", num);
        else snprintf(buf, len, "%s (0x%0*" PRIx64 ")", num, hd, v);
        return;
    }
    char num[32];
    if (is_unsigned(x.t)) snprintf(num, sizeof num, "%" PRIu64, v);
    else snprintf(num, sizeof num, "%" PRId64, dbg_to_int(x));
    if (brief) snprintf(buf, len, "%s", num);
    else snprintf(buf, len, "%s (0x%0*" PRIx64 ")", num, hd, v);
}

static void skipws(ectx *e) { while (*e->p == ' ' || *e->p == '\t') e->p++; }

static int eval_expr(ectx *e, dbg_val *out);
static int eval_top(ectx *e, dbg_val *out);

static int special_reg(ectx *e, const char *name, dbg_val *out)
{
    dbg_session *s = e->s;
    static const char *const three[] = { "%tid", "%ntid", "%ctaid", "%nctaid" };
    char base[32];
    int comp = 0;
    snprintf(base, sizeof base, "%s", name);
    char *dot = strchr(base, '.');
    if (dot) {
        if (strlen(dot) != 2 || !strchr("xyz", dot[1])) return -1;
        comp = (int)(strchr("xyz", dot[1]) - "xyz");
        *dot = 0;
    }
    int which = -1;
    for (int i = 0; i < 4; i++) if (!strcmp(base, three[i])) which = i;
    out->t = AST_T_U32;
    uint32_t c[3], t[3];
    if (which >= 0) {
        if (!dot) return -1;
        if (!e->w && (which == 0 || which == 2)) { snprintf(e->err, sizeof e->err, "%s needs a running thread", name); return -2; }
        switch (which) {
        case 0: dbg_tid_of(s, e->w->id, e->lane, t); out->v = t[comp]; break;
        case 1: out->v = s->c->block[comp] ? s->c->block[comp] : 1; break;
        case 2: dbg_cta_of(s, e->has_cta ? e->cta : s->fcta, c); out->v = c[comp]; break;
        default: out->v = s->c->grid[comp] ? s->c->grid[comp] : 1; break;
        }
        return 0;
    }
    if (dot) return -1;
    int l = e->lane;
    if (!strcmp(base, "%laneid")) out->v = (uint64_t)l;
    else if (!strcmp(base, "%warpid")) out->v = e->w ? (uint64_t)e->w->id : (uint64_t)s->fwarp;
    else if (!strcmp(base, "%nwarpid")) out->v = 64;
    else if (!strcmp(base, "%smid") || !strcmp(base, "%gridid")) out->v = !strcmp(base, "%gridid");
    else if (!strcmp(base, "%nsmid")) out->v = 1;
    else if (!strcmp(base, "%lanemask_eq")) out->v = 1u << l;
    else if (!strcmp(base, "%lanemask_lt")) out->v = (1u << l) - 1;
    else if (!strcmp(base, "%lanemask_le")) out->v = l == 31 ? 0xffffffffu : (2u << l) - 1;
    else if (!strcmp(base, "%lanemask_gt")) out->v = l == 31 ? 0 : ~((2u << l) - 1) & 0xffffffffu;
    else if (!strcmp(base, "%lanemask_ge")) out->v = ~((1u << l) - 1) & 0xffffffffu;
    else if (!strcmp(base, "%dynamic_smem_size")) out->v = s->c->shared_bytes;
    else if (!strcmp(base, "%total_smem_size")) out->v = s->L ? s->L->shared_dyn_base + ((s->L->cfg.dyn_shared + 15) & ~15ull) : 0;
    else if (!strcmp(base, "%clock")) out->v = s->L ? (uint32_t)(s->L->insns * 4) : 0;
    else if (!strcmp(base, "%clock64")) { out->v = s->L ? s->L->insns * 4 : 0; out->t = AST_T_U64; }
    else return -1;
    return 0;
}

static int eval_reg(ectx *e, dbg_val *out)
{
    char name[128];
    size_t n = 0;
    while (*e->p && (isalnum((unsigned char)*e->p) || strchr("%_$.", *e->p)) && n + 1 < sizeof name) name[n++] = *e->p++;
    name[n] = 0;
    int r = special_reg(e, name, out);
    if (r == 0) return 0;
    if (r == -2) return -1;
    if (!e->w) { snprintf(e->err, sizeof e->err, "No thread to read %s from (the program is not being run).", name); return -1; }
    dbg_pframe fr[DBG_MAX_FRAMES];
    int nf = 1;
    fr[0].pc = e->has_pc ? e->pc : e->w->pc[e->lane];
    if (e->phys > 0) {
        nf = dbg_phys_frames(e->s, e->w, e->lane, fr, DBG_MAX_FRAMES);
        if (e->phys >= nf) { snprintf(e->err, sizeof e->err, "No frame %d.", e->phys); return -1; }
    }
    uint32_t pc = fr[e->phys].pc, slot;
    ast_type t;
    if (bc_lookup_reg(e->s->m, pc, name, &slot, &t) < 0) {
        snprintf(e->err, sizeof e->err, "No register \"%s\" in the %s function.", name, e->phys ? "selected frame's" : "current");
        return -1;
    }
    out->t = t;
    out->v = dbg_frame_reg(e->s, e->w, e->lane, fr, nf, e->phys, slot);
    return 0;
}

int dbg_parse_type(const char **pp, ast_type *t)
{
    static const struct { const char *n; ast_type t; } tab[] = {
        { "u8", AST_T_U8 }, { "u16", AST_T_U16 }, { "u32", AST_T_U32 }, { "u64", AST_T_U64 },
        { "s8", AST_T_S8 }, { "s16", AST_T_S16 }, { "s32", AST_T_S32 }, { "s64", AST_T_S64 },
        { "b8", AST_T_B8 }, { "b16", AST_T_B16 }, { "b32", AST_T_B32 }, { "b64", AST_T_B64 },
        { "f16", AST_T_F16 }, { "f32", AST_T_F32 }, { "f64", AST_T_F64 }, { "bf16", AST_T_BF16 } };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        size_t l = strlen(tab[i].n);
        if (!strncmp(*pp, tab[i].n, l) && !isalnum((unsigned char)(*pp)[l])) { *t = tab[i].t; *pp += l; return 0; }
    }
    return -1;
}


const char *dbg_space_word(const char **pp, int *space)
{
    static const struct { const char *n; int sp; } tab[] = {
        { "global", BC_SP_GLOBAL }, { "shared", BC_SP_SHARED }, { "local", BC_SP_LOCAL }, { "generic", BC_SP_GENERIC } };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        size_t l = strlen(tab[i].n);
        if (!strncmp(*pp, tab[i].n, l) && !isalnum((unsigned char)(*pp)[l]) && (*pp)[l] != '_') {
            *space = tab[i].sp;
            *pp += l;
            return tab[i].n;
        }
    }
    return NULL;
}

static int eval_mem(ectx *e, dbg_val *out)
{
    int space = BC_SP_GENERIC;
    ast_type t = AST_T_B32;
    skipws(e);
    dbg_space_word(&e->p, &space);
    if (*e->p == '.') {
        e->p++;
        if (dbg_parse_type(&e->p, &t)) { snprintf(e->err, sizeof e->err, "unknown type after '.'"); return -1; }
    }
    dbg_val a;
    if (eval_expr(e, &a)) return -1;
    skipws(e);
    if (*e->p != ']') { snprintf(e->err, sizeof e->err, "expected ']'"); return -1; }
    e->p++;
    uint64_t addr = (uint64_t)dbg_to_int(a);
    int n = dbg_type_bits(t) / 8;
    const uint8_t *p = dbg_mem_at(e->s, e->w, e->lane, space, addr, (uint64_t)n);
    if (!p) { snprintf(e->err, sizeof e->err, "Cannot access memory at address 0x%" PRIx64 ".", addr); return -1; }
    out->v = 0;
    memcpy(&out->v, p, (size_t)n);
    out->t = t;
    return 0;
}

static int eval_ident(ectx *e, dbg_val *out)
{
    char name[128];
    size_t n = 0;
    while ((isalnum((unsigned char)*e->p) || *e->p == '_' || *e->p == '$') && n + 1 < sizeof name) name[n++] = *e->p++;
    name[n] = 0;
    dbg_session *s = e->s;
    for (int i = 0; i < s->c->nbuffers; i++)
        if (!strcmp(s->c->buffers[i].name, name)) { out->v = s->P.bufaddr[i]; out->t = AST_T_U64; return 0; }
    const bc_func *k = &s->m->funcs[s->P.kernel];
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name)) {
            out->v = 0;
            memcpy(&out->v, s->P.params + k->params[i].offset, (size_t)(k->params[i].size > 8 ? 8 : k->params[i].size));
            out->t = k->params[i].type != AST_T_NONE ? k->params[i].type : AST_T_U64;
            return 0;
        }
    snprintf(e->err, sizeof e->err, "No symbol \"%s\" (a buffer or kernel parameter) in current context.", name);
    return -1;
}

static int eval_primary(ectx *e, dbg_val *out)
{
    skipws(e);
    char c = *e->p;
    if (c == '(') {
        e->p++;
        if (eval_top(e, out)) return -1;
        skipws(e);
        if (*e->p != ')') { snprintf(e->err, sizeof e->err, "expected ')'"); return -1; }
        e->p++;
        return 0;
    }
    if (c == '-') { e->p++; if (eval_primary(e, out)) return -1;
        if (is_float(out->t)) { double d = -to_double(*out); memcpy(&out->v, &d, 8); out->t = AST_T_F64; }
        else { out->v = 0 - (uint64_t)dbg_to_int(*out); if (is_unsigned(out->t)) out->t = dbg_type_bits(out->t) > 32 ? AST_T_S64 : AST_T_S32; }
        return 0; }
    if (c == '~') { e->p++; if (eval_primary(e, out)) return -1; out->v = ~out->v; return 0; }
    if (c == '!' && e->p[1] != '=') {
        e->p++;
        if (eval_primary(e, out)) return -1;
        out->v = is_float(out->t) ? to_double(*out) == 0 : dbg_to_int(*out) == 0;
        out->t = AST_T_S32;
        return 0;
    }
    if (c == '[') { e->p++; return eval_mem(e, out); }
    if (c == '%') return eval_reg(e, out);
    if (isdigit((unsigned char)c) || c == '.') {
        char *end;
        const char *st = e->p;
        uint64_t v = strtoull(st, &end, 0);
        if (*end == '.' || *end == 'e' || *end == 'E') {
            double d = strtod(st, &end);
            memcpy(&out->v, &d, 8);
            out->t = AST_T_F64;
        } else {
            out->v = v;
            out->t = v <= 0x7fffffffu ? AST_T_S32 : AST_T_S64;
        }
        e->p = end;
        return 0;
    }
    if (isalpha((unsigned char)c) || c == '_' || c == '$') return eval_ident(e, out);
    snprintf(e->err, sizeof e->err, c ? "unexpected '%c' in expression" : "expression expected", c);
    return -1;
}

static dbg_val arith(char op, dbg_val a, dbg_val b, int *bad)
{
    dbg_val r;
    if (is_float(a.t) || is_float(b.t)) {
        double x = to_double(a), y = to_double(b), z = 0;
        switch (op) { case '+': z = x + y; break; case '-': z = x - y; break; case '*': z = x * y; break;
                      case '/': z = x / y; break; default: *bad = 1; }
        memcpy(&r.v, &z, 8);
        r.t = AST_T_F64;
        return r;
    }
    int w64 = dbg_type_bits(a.t) > 32 || dbg_type_bits(b.t) > 32, uns = is_unsigned(a.t) && is_unsigned(b.t);
    r.t = w64 ? (uns ? AST_T_U64 : AST_T_S64) : (uns ? AST_T_U32 : AST_T_S32);
    int64_t x = dbg_to_int(a), y = dbg_to_int(b);
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (op) {
    case '+': r.v = ux + uy; break;
    case '-': r.v = ux - uy; break;
    case '*': r.v = ux * uy; break;
    /* signed x / -1 is -x, wrapping (INT64_MIN / -1 traps in C) */
    case '/': if (!y) { *bad = 2; r.v = 0; } else r.v = uns ? ux / uy : y == -1 ? 0 - ux : (uint64_t)(x / y); break;
    case '%': if (!y) { *bad = 2; r.v = 0; } else r.v = uns ? ux % uy : y == -1 ? 0 : (uint64_t)(x % y); break;
    case '&': r.v = ux & uy; break;
    case '|': r.v = ux | uy; break;
    case '^': r.v = ux ^ uy; break;
    case '<': r.v = uy < 64 ? ux << uy : 0; break;
    case '>': r.v = uy < 64 ? (uns ? ux >> uy : (uint64_t)(x >> uy)) : 0; break;
    }
    r.v = mask_bits(r.v, w64 ? 64 : 32);
    return r;
}

static int eval_term(ectx *e, dbg_val *out)
{
    if (eval_primary(e, out)) return -1;
    for (;;) {
        skipws(e);
        char op = *e->p;
        if (op != '*' && op != '/' && op != '%') return 0;
        e->p++;
        dbg_val b;
        if (eval_primary(e, &b)) return -1;
        int bad = 0;
        *out = arith(op, *out, b, &bad);
        if (bad) { snprintf(e->err, sizeof e->err, "Division by zero"); return -1; }
    }
}

static int eval_expr(ectx *e, dbg_val *out)
{
    if (eval_term(e, out)) return -1;
    for (;;) {
        skipws(e);
        char op = *e->p;
        if (op == '<' && e->p[1] == '<') e->p++;
        else if (op == '>' && e->p[1] == '>') e->p++;
        else if ((op == '&' || op == '|') && e->p[1] == op) return 0;     /* && || */
        else if (!strchr("+-&|^", op) || !op) return 0;
        e->p++;
        dbg_val b;
        if (eval_term(e, &b)) return -1;
        int bad = 0;
        *out = arith(op, *out, b, &bad);
        if (bad) { snprintf(e->err, sizeof e->err, "Bad operands"); return -1; }
    }
}

static int truth(dbg_val v) { return is_float(v.t) ? to_double(v) != 0 : dbg_to_int(v) != 0; }

/* Comparisons (== != < <= > >=) over eval_expr; 1 or 0 as s32. */
static int eval_cmp(ectx *e, dbg_val *out)
{
    if (eval_expr(e, out)) return -1;
    for (;;) {
        skipws(e);
        const char *p = e->p;
        int op;
        if (p[0] == '=' && p[1] == '=') op = 'e';
        else if (p[0] == '!' && p[1] == '=') op = 'n';
        else if (p[0] == '<' && p[1] == '=') op = 'l';
        else if (p[0] == '>' && p[1] == '=') op = 'g';
        else if (p[0] == '<' && p[1] != '<') op = '<';
        else if (p[0] == '>' && p[1] != '>') op = '>';
        else return 0;
        e->p += op == '<' || op == '>' ? 1 : 2;
        dbg_val b;
        if (eval_expr(e, &b)) return -1;
        int c;
        if (is_float(out->t) || is_float(b.t)) {
            double x = to_double(*out), y = to_double(b);
            c = x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;          /* 2: unordered */
        } else if (is_unsigned(out->t) && is_unsigned(b.t)) {
            uint64_t x = (uint64_t)dbg_to_int(*out), y = (uint64_t)dbg_to_int(b);
            c = x < y ? -1 : x > y;
        } else {
            int64_t x = dbg_to_int(*out), y = dbg_to_int(b);
            c = x < y ? -1 : x > y;
        }
        int r = op == 'e' ? c == 0 : op == 'n' ? c != 0 : c == 2 ? 0 :
                op == '<' ? c < 0 : op == 'l' ? c <= 0 : op == '>' ? c > 0 : c >= 0;
        out->v = (uint64_t)r;
        out->t = AST_T_S32;
    }
}

static int eval_and(ectx *e, dbg_val *out)
{
    if (eval_cmp(e, out)) return -1;
    for (;;) {
        skipws(e);
        if (e->p[0] != '&' || e->p[1] != '&') return 0;
        e->p += 2;
        dbg_val b;
        if (eval_cmp(e, &b)) return -1;
        out->v = (uint64_t)(truth(*out) && truth(b));
        out->t = AST_T_S32;
    }
}

/* The whole expression: || over && over comparisons over arithmetic. */
static int eval_top(ectx *e, dbg_val *out)
{
    if (eval_and(e, out)) return -1;
    for (;;) {
        skipws(e);
        if (e->p[0] != '|' || e->p[1] != '|') return 0;
        e->p += 2;
        dbg_val b;
        if (eval_and(e, &b)) return -1;
        out->v = (uint64_t)(truth(*out) || truth(b));
        out->t = AST_T_S32;
    }
}

int dbg_eval(dbg_session *s, const dbg_where *at, const char *text, dbg_val *out, const char **rest, char err[DBG_EXPR_ERR])
{
    ectx e = { s, at->w, at->lane, text, "", at->has_pc, at->pc, at->has_cta, at->cta, at->phys };
    if (eval_top(&e, out)) { memcpy(err, e.err, sizeof e.err); return -1; }
    skipws(&e);
    *rest = e.p;
    return 0;
}

/* The lanes of `group` (w issuing at pc) for which b's condition holds.
 * An error (a register not visible there, say) stops the whole group, with
 * the message in err, as gdb does. */
int dbg_cond_lanes(dbg_session *s, const dbg_bp *b, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc,
                   uint32_t *lanes, char *err, size_t errlen)
{
    uint32_t r = 0;
    for (uint32_t mm = group; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        dbg_val v;
        ectx e = { s, w, l, b->cond, "", 1, pc, 1, cta->linear, 0 };
        int bad = eval_top(&e, &v);
        if (!bad) { skipws(&e); if (*e.p) { snprintf(e.err, sizeof e.err, "Junk after expression: \"%s\"", e.p); bad = 1; } }
        if (bad) {
            snprintf(err, errlen, "Error in testing condition for breakpoint %d: %s", b->id, e.err);
            *lanes = group;
            return 1;
        }
        if (truth(v)) r |= 1u << l;
    }
    *lanes = r;
    return 1;
}

