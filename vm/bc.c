/* bc.c — the opcode tables generated from ops.def, the disassembler and
 * bc_module housekeeping. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bc.h"

const char *const bc_op_name[OP__COUNT] = {
#define OP(name, text, fmt) text,
#include "ops.def"
#undef OP
};

const unsigned char bc_op_fmt[OP__COUNT] = {
#define OP(name, text, fmt) fmt,
#include "ops.def"
#undef OP
};

void bc_module_free(bc_module *m)
{
    if (!m) return;
    for (int i = 0; i < m->nfuncs; i++) { free(m->funcs[i].params); free(m->funcs[i].rets); }
    free(m->code); free(m->funcs); free(m->extra); free(m->consts); free(m->const_relocs);
    free(m->vars); free(m->global_image); free(m->const_image); free(m->relocs);
    free(m->srclocs); free(m->files); free(m->regnames); free(m->labels);
    free(m->maybe_uninit); free(m->store_roots); free(m->fused); free(m->fuse_heads); free(m->fuse_steps); free(m->fuse_bras); free(m->call_save); free(m->call_plan); free(m->call_save_list);
    free(m);
}

int bc_find_func(const bc_module *m, const char *name)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name)) return i;
    return -1;
}

int bc_lookup_reg(const bc_module *m, uint32_t pc, const char *name, uint32_t *slot, ast_type *type)
{
    int f = bc_func_at(m, pc);
    char base[256];
    int comp = -1;
    const char *dot = strrchr(name, '.');
    if (dot && dot != name && strlen(dot) == 2 && strchr("xyzw", dot[1]) && (size_t)(dot - name) < sizeof base) {
        memcpy(base, name, (size_t)(dot - name));
        base[dot - name] = 0;
        comp = (int)(strchr("xyzw", dot[1]) - "xyzw");
        name = base;
    }
    int best = -1;
    uint32_t bslot = 0;
    for (int i = 0; i < m->nregnames; i++) {
        const bc_regname *r = &m->regnames[i];
        if (r->func != f || pc < r->pc_begin || pc >= r->pc_end) continue;
        if (r->count) {
            size_t pl = strlen(r->name);
            if (strncmp(name, r->name, pl) || !name[pl]) continue;
            char *end;
            long long ix = strtoll(name + pl, &end, 10);
            if (*end || ix < 0 || ix >= r->count || (name[pl] == '0' && name[pl + 1])) continue;
            best = i; bslot = r->slot + (uint32_t)ix * BC_WARP;
        } else if (!strcmp(r->name, name)) {
            if (comp >= 0 && (!r->vec || comp >= r->vec)) continue;
            best = i; bslot = r->slot + (uint32_t)(comp > 0 ? comp : 0) * BC_WARP;
        }
    }
    if (best < 0) return -1;
    *slot = bslot;
    if (type) *type = m->regnames[best].type;
    return 0;
}

int bc_func_at(const bc_module *m, uint32_t pc)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].kind == BC_FN_DEFINED && pc >= m->funcs[i].pc_begin && pc < m->funcs[i].pc_end) return i;
    return -1;
}

/* ---- formatting ---------------------------------------------------------- */

typedef struct sbuf { char *p; size_t len, at; } sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->at >= b->len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->at, b->len - b->at, fmt, ap);
    va_end(ap);
    if (n > 0) b->at += (size_t)n;
    if (b->at > b->len) b->at = b->len;
}

/* A slot as text: #value for constants, FP/CC/_ for hidden registers and
 * rN (the module-wide register number) otherwise. */
static void slot(const bc_module *m, sbuf *b, uint32_t s)
{
    uint32_t i = s / BC_WARP;
    if (i < m->nconsts) {
        uint64_t v = m->consts[i];
        if (v < 65536) put(b, "#%" PRIu64, v);
        else put(b, "#0x%" PRIx64, v);
    } else if (s == m->slot_fp) put(b, "FP");
    else if (s == m->slot_cc) put(b, "CC");
    else if (s == m->slot_sink) put(b, "_");
    else put(b, "r%u", i - m->nconsts);
}

static void list(const bc_module *m, sbuf *b, const bc_insn *in)
{
    if (in->n <= 1) { slot(m, b, bc_op_fmt[in->op] == F_ST ? in->b : in->d); return; }
    put(b, "{");
    for (int k = 0; k < in->n; k++) {
        if (k) put(b, ", ");
        slot(m, b, m->extra[in->x + (uint32_t)k]);
    }
    put(b, "}");
}

static const char *const space_names[] = { "", ".global", ".shared", ".local", ".const", ".param" };

static void addr(const bc_module *m, sbuf *b, const bc_insn *in)
{
    put(b, "[");
    slot(m, b, in->a);
    if (in->imm) put(b, "%+" PRId64, in->imm);
    put(b, "]");
}

void bc_format_insn(const bc_module *m, uint32_t pc, char *buf, size_t len)
{
    sbuf b = { buf, len, 0 };
    if (len) buf[0] = 0;
    const bc_insn *in = &m->code[pc];
    if (in->guard != BC_NO_GUARD) { put(&b, "@%s", in->gneg ? "!" : ""); slot(m, &b, in->guard); put(&b, " "); }
    put(&b, "%s", bc_op_name[in->op]);
    if (in->m1 || in->m2 || in->m3) put(&b, "<%u,%u,%u>", in->m1, in->m2, in->m3);
    if (in->flags & BC_IF_FTZ) put(&b, ".ftz");
    if (in->flags & BC_IF_SAT) put(&b, ".sat");
    put(&b, " ");
    switch ((bc_fmt)bc_op_fmt[in->op]) {
    case F_NONE: break;
    case F_D: slot(m, &b, in->d); break;
    case F_DA: slot(m, &b, in->d); put(&b, ", "); slot(m, &b, in->a); break;
    case F_DAB: slot(m, &b, in->d); put(&b, ", "); slot(m, &b, in->a); put(&b, ", "); slot(m, &b, in->b); break;
    case F_DABC:
        slot(m, &b, in->d); put(&b, ", "); slot(m, &b, in->a); put(&b, ", "); slot(m, &b, in->b);
        put(&b, ", "); slot(m, &b, in->c);
        break;
    case F_LD:
        if (in->op == OP_UNPACK) { list(m, &b, in); put(&b, ", "); slot(m, &b, in->a); break; }
        list(m, &b, in); put(&b, ", "); addr(m, &b, in);
        break;
    case F_ST: addr(m, &b, in); put(&b, ", "); list(m, &b, in); break;
    case F_ATOM:
        put(&b, "%s ", in->m3 < 6 ? space_names[in->m3] : "?");
        slot(m, &b, in->d); put(&b, ", "); addr(m, &b, in); put(&b, ", "); slot(m, &b, in->b);
        if (in->m1 == BC_RED_CAS) { put(&b, ", "); slot(m, &b, in->c); }
        break;
    case F_BRA:
        if (in->op == OP_BRX) { slot(m, &b, in->a); put(&b, ", "); }
        put(&b, "%" PRId64, in->imm);
        break;
    case F_CALL:
        if (in->op == OP_CALLI) slot(m, &b, in->a);
        else put(&b, "%s", in->imm >= 0 && in->imm < m->nfuncs ? m->funcs[in->imm].name : "?");
        put(&b, " (%u args, %u rets)", m->extra[in->x], m->extra[in->x + 1]);
        break;
    case F_SREG: slot(m, &b, in->d); put(&b, ", sreg%" PRId64 ".%c", in->imm, "xyz"[in->m1 % 3]); break;
    case F_COLL:
        slot(m, &b, in->d);
        if (in->flags & BC_IF_HAS_E) { put(&b, "|"); slot(m, &b, in->e); }
        put(&b, ", "); slot(m, &b, in->a); put(&b, ", "); slot(m, &b, in->b); put(&b, ", ");
        slot(m, &b, in->c); put(&b, ", mask "); slot(m, &b, in->x);
        break;
    case F_MMA: {
        uint32_t at = in->x + 4;
        for (int g = 0; g < 4; g++) {
            uint32_t n = m->extra[in->x + (uint32_t)g];
            if (g) put(&b, ", ");
            put(&b, "{");
            for (uint32_t k = 0; k < n; k++) { if (k) put(&b, ","); slot(m, &b, m->extra[at++]); }
            put(&b, "}");
        }
        if (in->imm) put(&b, " %+" PRId64, in->imm);
        break;
    }
    case F_BAR:
        if (in->m1 >= 2) { slot(m, &b, in->d); put(&b, ", "); }
        slot(m, &b, in->a); put(&b, ", "); slot(m, &b, in->b);
        if (in->m1 >= 2) { put(&b, ", %s", in->flags & BC_IF_NEG ? "!" : ""); slot(m, &b, in->c); }
        break;
    }
}

void bc_format_srcloc(const bc_module *m, int src, int chain, char *buf, size_t len)
{
    sbuf b = { buf, len, 0 };
    if (len) buf[0] = 0;
    for (int depth = 0; src >= 0 && src < m->nsrclocs && depth < 16; depth++) {
        const bc_srcloc *s = &m->srclocs[src];
        const char *f = s->file >= 0 && s->file < m->nfiles && m->files[s->file] ? m->files[s->file] : "?";
        if (depth) put(&b, " inlined at ");
        put(&b, "%s:%d:%d", f, s->line, s->col);
        if (!chain) break;
        src = s->parent;
    }
}

static const char *type_or_dash(ast_type t) { const char *s = ast_type_name(t); return *s ? s : "-"; }

void bc_disassemble(const bc_module *m, int func, FILE *out)
{
    char text[512], loc[512];
    fprintf(out, "; module %s: %u instructions, %u register slots (%u constants), "
                 "%" PRIu64 " bytes static shared, %" PRIu64 " bytes global data, %" PRIu64 " bytes const\n",
            m->path, m->ncode, m->nslots, m->nconsts, m->shared_static, m->global_size, m->const_size);
    for (int i = 0; i < m->nvars; i++) {
        const bc_var *v = &m->vars[i];
        fprintf(out, "; var %s %s size %" PRIu64 " align %" PRIu64 " offset %" PRIu64 "%s\n", v->name,
                space_names[v->space], v->size, v->align, v->offset, v->is_extern_shared ? " (dynamic)" : "");
    }
    for (int f = 0; f < m->nfuncs; f++) {
        if (func >= 0 && f != func) continue;
        const bc_func *fn = &m->funcs[f];
        fprintf(out, "\n%s %s", fn->is_entry ? ".entry" : fn->kind == BC_FN_DEFINED ? ".func" : fn->kind == BC_FN_BUILTIN ? ".builtin" : ".extern",
                fn->name);
        fprintf(out, " (");
        for (int k = 0; k < fn->nparams; k++)
            fprintf(out, "%s%s %s @%d:%d", k ? ", " : "", type_or_dash(fn->params[k].type), fn->params[k].name,
                    fn->params[k].offset, fn->params[k].size);
        fprintf(out, ")");
        if (fn->nrets) {
            fprintf(out, " -> (");
            for (int k = 0; k < fn->nrets; k++)
                fprintf(out, "%s%s %s @%d:%d", k ? ", " : "", type_or_dash(fn->rets[k].type), fn->rets[k].name,
                        fn->rets[k].offset, fn->rets[k].size);
            fprintf(out, ")");
        }
        fprintf(out, "\n");
        if (fn->kind != BC_FN_DEFINED) continue;
        fprintf(out, "; registers r%u..r%u, frame %d bytes, pc %u..%u\n", fn->slot_base - m->nconsts,
                fn->slot_base - m->nconsts + fn->nslots, fn->frame_size, fn->pc_begin, fn->pc_end);
        for (uint32_t pc = fn->pc_begin; pc < fn->pc_end; pc++) {
            bc_format_insn(m, pc, text, sizeof text);
            bc_format_srcloc(m, m->code[pc].src, 1, loc, sizeof loc);
            fprintf(out, "%6u  %-60s ; ptx:%d%s%s", pc, text, m->code[pc].line, loc[0] ? "  " : "", loc);
            if (m->fused && m->fused[pc].op != m->code[pc].op) {   /* a superinstruction starts here (vm/fuse.c) */
                const bc_insn *h = &m->fused[pc];
                int fall = h->op == OP_SETP_BRA && (m->fuse_bras[h->x].dead & BC_FUSE_MD_FALL);
                fprintf(out, "  [fused: %s x%u%s%s]", bc_op_name[h->op],   /* triples, or instructions */
                        h->op == OP_WIDE_ADD || h->op == OP_LDG_STS ? 2 : h->b,
                        !bc_fuse_cached(m, pc) ? "" : h->op == OP_SETP_BRA ? ", a compare done once a block"
                                                                            : ", shared rows checked once a block",
                        fall ? ", the mov only where it branches" : "");
            }
            fprintf(out, "\n");
        }
    }
}
