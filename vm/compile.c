/* compile.c — from the parsed module to bytecode: data layout, symbols,
 * register scopes, labels, source locations and the final slot layout.
 * Instruction selection lives in compile_insn.c.
 *
 * Register file layout of the finished module (slot numbers):
 *   [0, nconsts)                       constant pool (immediates, addresses)
 *   [nconsts, nconsts + CC_NHIDDEN)    FP, CC, SINK
 *   [.., ..)                           each function's registers, in turn
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "compile.h"

/* ---- errors ------------------------------------------------------------- */

void cc_error(bc_cc *c, const ast_loc *loc, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = loc ? loc->line : c->st ? c->st->loc.line : 0;
    int col = loc ? loc->col : c->st ? c->st->loc.col : 0;
    diag_add(c->diags, DIAG_ERROR, c->ast->path, line, col, "%s", msg);
    c->nerrors++;
}

/* ---- slots --------------------------------------------------------------- */

uint32_t cc_hidden(int h) { return CC_TAG_HIDDEN | (uint32_t)h; }

uint32_t cc_const(bc_cc *c, uint64_t v)
{
    if ((c->chash_n + 1) * 2 > c->chash_cap) {
        size_t nc = c->chash_cap ? c->chash_cap * 2 : 256;
        uint64_t *nk = calloc(nc, sizeof *nk);
        uint32_t *nv = malloc(nc * sizeof *nv);
        if (!nk || !nv) abort();
        memset(nv, 0xff, nc * sizeof *nv);
        for (size_t i = 0; i < c->chash_cap; i++) {
            if (c->chash_vals[i] == UINT32_MAX) continue;
            size_t j = (c->chash_keys[i] * 0x9E3779B97F4A7C15ull >> 20) & (nc - 1);
            while (nv[j] != UINT32_MAX) j = (j + 1) & (nc - 1);
            nk[j] = c->chash_keys[i];
            nv[j] = c->chash_vals[i];
        }
        free(c->chash_keys); free(c->chash_vals);
        c->chash_keys = nk; c->chash_vals = nv; c->chash_cap = nc;
    }
    size_t i = (v * 0x9E3779B97F4A7C15ull >> 20) & (c->chash_cap - 1);
    while (c->chash_vals[i] != UINT32_MAX) {
        if (c->chash_keys[i] == v) return CC_TAG_CONST | c->chash_vals[i];
        i = (i + 1) & (c->chash_cap - 1);
    }
    uint32_t idx = (uint32_t)VEC_PUSH(c->consts, v);
    c->chash_keys[i] = v;
    c->chash_vals[i] = idx;
    c->chash_n++;
    return CC_TAG_CONST | idx;
}

/* A constant slot that must be patched with a variable's placed address;
 * never shared with other constants. */
/* A constant slot holding var's address (+ addend), patched at launch.  The
 * last few slots of the current function are reused for the same value. */
uint32_t cc_const_var(bc_cc *c, int var, int64_t addend)
{
    int func = c->fn ? c->fn_index : -1;
    for (size_t i = c->const_relocs.n, seen = 0; i-- > 0 && seen < 64 && c->const_relocs.v[i].func == func; seen++)
        if (c->const_relocs.v[i].var == var && c->const_relocs.v[i].addend == addend)
            return CC_TAG_CONST | c->const_relocs.v[i].slot;
    uint32_t idx = (uint32_t)VEC_PUSH(c->consts, 0);
    bc_const_reloc r = { idx, var, addend, func };
    VEC_PUSH(c->const_relocs, r);
    return CC_TAG_CONST | idx;
}

uint32_t cc_new_reg(bc_cc *c)
{
    return CC_TAG_REG | (c->total_regs + c->nregs++);
}

/* ---- emission ------------------------------------------------------------ */

static int cc_srcloc(bc_cc *c, const ast_srcloc *s);

uint32_t cc_emit(bc_cc *c, bc_insn in)
{
    if (c->st) {
        in.line = c->st->loc.line;
        in.src = cc_srcloc(c, &c->st->src);
    }
    return (uint32_t)VEC_PUSH(c->code, in);
}

uint32_t cc_extra(bc_cc *c, const uint32_t *v, int n, int slots)
{
    uint32_t at = (uint32_t)c->extra.n;
    for (int i = 0; i < n; i++) VEC_PUSH(c->extra, v[i]);
    if (slots && n) {
        VEC_PUSH(c->slot_lists, at);
        VEC_PUSH(c->slot_lists, (uint32_t)n);
    }
    return at;
}

void cc_fixup_label(bc_cc *c, uint32_t pc, const char *label, ast_loc loc, int in_extra)
{
    cc_fixup f = { pc, label, loc, in_extra };
    VEC_PUSH(c->fixups, f);
}

/* ---- source locations -------------------------------------------------------- */

/* A .loc position as one key (files, lines and columns each fit 21 bits in
 * any real module; a larger one is never found, which only costs an entry). */
static uint64_t loc_key(int file, int line, int col)
{
    if ((unsigned)file >= 1u << 21 || (unsigned)line >= 1u << 21 || (unsigned)col >= 1u << 21) return 0;
    return (uint64_t)file << 42 | (uint64_t)line << 21 | (uint64_t)col | 1ull << 63;
}

/* Records entry idx as the latest at its position. */
static void loc_put(bc_cc *c, const bc_srcloc *s, int idx)
{
    uint64_t k = loc_key(s->file, s->line, s->col);
    if (!k) return;
    if ((c->loc_n + 1) * 2 > c->loc_cap) {
        size_t nc = c->loc_cap ? c->loc_cap * 2 : 1024;
        uint64_t *nk = calloc(nc, sizeof *nk);
        int *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) { free(nk); free(nv); return; }   /* out of memory: lookups find less */
        for (size_t i = 0; i < c->loc_cap; i++) {
            if (!c->loc_keys[i]) continue;
            size_t j = (c->loc_keys[i] * 0x9E3779B97F4A7C15ull >> 20) & (nc - 1);
            while (nk[j]) j = (j + 1) & (nc - 1);
            nk[j] = c->loc_keys[i];
            nv[j] = c->loc_vals[i];
        }
        free(c->loc_keys); free(c->loc_vals);
        c->loc_keys = nk; c->loc_vals = nv; c->loc_cap = nc;
    }
    size_t i = (k * 0x9E3779B97F4A7C15ull >> 20) & (c->loc_cap - 1);
    while (c->loc_keys[i] && c->loc_keys[i] != k) i = (i + 1) & (c->loc_cap - 1);
    if (!c->loc_keys[i]) { c->loc_keys[i] = k; c->loc_n++; }
    c->loc_vals[i] = idx;
}

/* The latest .loc entry at (file, line, col) among the recent window
 * (src_last), or -1: entries only grow, so the latest one overall is in
 * the window exactly when it is not older than the window's first. */
static int src_key_find(bc_cc *c, int file, int line, int col)
{
    uint64_t k = loc_key(file, line, col);
    if (!k || !c->loc_cap || !c->src_last.n) return -1;
    for (size_t i = (k * 0x9E3779B97F4A7C15ull >> 20) & (c->loc_cap - 1); c->loc_keys[i]; i = (i + 1) & (c->loc_cap - 1))
        if (c->loc_keys[i] == k) return c->loc_vals[i] >= c->src_last.v[0] ? c->loc_vals[i] : -1;
    return -1;
}

/* The text of .debug_str label `label` (the first of that name), or NULL. */
static const char *debug_str(bc_cc *c, const char *label)
{
    if (!label) return NULL;
    if (!c->debug_map_built) {
        c->debug_map_built = 1;
        for (int i = 0; i < c->ast->ndebug_strs; i++)
            if (!strmap_get(&c->debug_map, c->ast->debug_strs[i].label)) strmap_put(&c->debug_map, c->ast->debug_strs[i].label, i);
    }
    int *i = strmap_get(&c->debug_map, label);
    return i ? c->ast->debug_strs[*i].text : NULL;
}

/* Interns a .loc: identical consecutive locations share one entry; the
 * inlined_at position is resolved to the latest .loc at that position. */
static int cc_srcloc(bc_cc *c, const ast_srcloc *s)
{
    if (!s || s->file == 0) return -1;
    if (c->srclocs.n) {
        const bc_srcloc *l = &c->srclocs.v[c->srclocs.n - 1];
        if (l->file == s->file && l->line == s->line && l->col == s->col) return (int)c->srclocs.n - 1;
    }
    int parent = -1;
    if (s->in_file) {
        parent = src_key_find(c, s->in_file, s->in_line, s->in_col);
        if (parent < 0) {
            bc_srcloc p = { s->in_file, s->in_line, s->in_col, -1, NULL };
            parent = VEC_PUSH(c->srclocs, p);
        }
    }
    bc_srcloc n = { s->file, s->line, s->col, parent, debug_str(c, s->function_name) };
    int idx = VEC_PUSH(c->srclocs, n);
    /* keep a bounded recent window for inlined_at lookups */
    VEC_PUSH(c->src_last, idx);
    loc_put(c, &n, idx);
    if (c->src_last.n > 4096) {
        memmove(c->src_last.v, c->src_last.v + 2048, (c->src_last.n - 2048) * sizeof(int));
        c->src_last.n -= 2048;
    }
    return idx;
}

/* ---- symbols --------------------------------------------------------------------- */

const cc_sym *cc_sym_lookup(bc_cc *c, const char *name)
{
    int *li = strmap_get(&c->localmap, name);
    if (li && *li >= 0) return &c->locals.v[*li].sym;
    int *gi = strmap_get(&c->globals, name);
    if (gi) return &c->gsyms.v[*gi];
    return NULL;
}

static void local_put(bc_cc *c, const char *name, cc_sym s)
{
    int *old = strmap_get(&c->localmap, name);
    cc_local l = { name, s, old ? *old : -1 };
    int idx = VEC_PUSH(c->locals, l);
    strmap_put(&c->localmap, name, idx);
}

static int type_align(ast_type t, int vec)
{
    int s = ast_type_size(t);
    if (s <= 0) s = 1;
    return s * (vec ? vec : 1);
}

static int64_t var_size(const ast_var *v)
{
    int64_t n = (int64_t)ast_type_size(v->type) * (v->vec ? v->vec : 1);
    for (int i = 0; i < v->ndims; i++) {
        if (v->dims[i] < 0) return 0;
        if (v->dims[i] > 0 && n > ((int64_t)1 << 40) / v->dims[i]) return -1;
        n *= v->dims[i];
    }
    return n;
}

static int var_align(const ast_var *v)
{
    int a = v->align ? v->align : type_align(v->type, v->vec);
    return a > 0 ? a : 1;
}

static int64_t align_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* Frame slot for a .param/.local declared in a body or as a .func param. */
static cc_sym frame_var(bc_cc *c, const ast_var *v)
{
    int64_t size = var_size(v);
    if (size < 0 || size > (1 << 20)) {
        cc_error(c, &v->loc, "'%s' is too large for a frame (%lld bytes)", v->name, (long long)size);
        size = 0;
    }
    c->frame = (int)align_up(c->frame, var_align(v));
    cc_sym s = { CC_SYM_FRAME, 0, c->frame, (int)size, v->type };
    c->frame += (int)size;
    return s;
}

/* ---- module variables --------------------------------------------------------- */

static void put_bytes(uint8_t *img, uint64_t at, uint64_t v, int size)
{
    memcpy(img + at, &v, (size_t)size);
}

/* Writes initializer `in` for a variable of element type t into img at *pos. */
static void init_write(bc_cc *c, int space, int varidx, uint8_t *img, uint64_t limit,
                       uint64_t *pos, const ast_init *in, ast_type t, int depth)
{
    int es = ast_type_size(t);
    if (es <= 0) es = 1;
    if (depth > 64) { cc_error(c, &in->loc, "initializer nested too deeply"); return; }
    if (in->kind == AST_INIT_LIST) {
        for (int i = 0; i < in->n; i++) init_write(c, space, varidx, img, limit, pos, in->items[i], t, depth + 1);
        return;
    }
    if (*pos + (uint64_t)es > limit) { cc_error(c, &in->loc, "too many initializers"); return; }
    uint64_t v = 0;
    switch (in->kind) {
    case AST_INIT_INT:
        if (t == AST_T_F32) { float f = (float)in->ival; uint32_t b; memcpy(&b, &f, 4); v = b; }
        else if (t == AST_T_F64) { double d = (double)in->ival; memcpy(&v, &d, 8); }
        else v = (uint64_t)in->ival;
        break;
    case AST_INIT_F32:
        if (t == AST_T_F64) { uint32_t b = (uint32_t)in->bits; float f; memcpy(&f, &b, 4); double d = f; memcpy(&v, &d, 8); }
        else v = in->bits;
        break;
    case AST_INIT_F64:
        if (t == AST_T_F32) { double d; memcpy(&d, &in->bits, 8); float f = (float)d; uint32_t b; memcpy(&b, &f, 4); v = b; }
        else v = in->bits;
        break;
    case AST_INIT_SYM: {
        int *gi = strmap_get(&c->globals, in->name);
        if (gi && c->gsyms.v[*gi].kind == CC_SYM_FUNC) {     /* a function pointer */
            v = BC_FUNC_ADDR_BASE + (uint64_t)c->gsyms.v[*gi].idx + (uint64_t)in->ival;
            break;
        }
        if (!gi || c->gsyms.v[*gi].kind != CC_SYM_VAR) {
            cc_error(c, &in->loc, "initializer names unknown variable '%s'", in->name);
            break;
        }
        bc_reloc r = { space, *pos, c->gsyms.v[*gi].idx, in->ival, in->generic };
        VEC_PUSH(c->relocs, r);
        break;
    }
    default: break;
    }
    (void)varidx;
    put_bytes(img, *pos, v, es);
    *pos += (uint64_t)es;
}

/* Lays out one module-level (or body-level .shared/.global/.const) variable. */
static int add_var(bc_cc *c, const ast_var *v)
{
    int64_t size = var_size(v);
    int align = var_align(v);
    if (size < 0 || size > ((int64_t)1 << 32)) {
        cc_error(c, &v->loc, "variable '%s' is too large", v->name);
        size = 0;
    }
    bc_var bv = { v->name, 0, (uint64_t)size, (uint64_t)align, 0, 0 };
    switch (v->space) {
    case AST_SPACE_GLOBAL: bv.space = BC_SP_GLOBAL; break;
    case AST_SPACE_CONST: bv.space = BC_SP_CONST; break;
    case AST_SPACE_SHARED: bv.space = BC_SP_SHARED; break;
    default:
        cc_error(c, &v->loc, "variables in the .%s space are not supported here", ast_space_name(v->space));
        return -1;
    }
    int idx = (int)c->vars.n;
    if (bv.space == BC_SP_SHARED && v->ndims && v->dims[v->ndims - 1] < 0) {
        bv.is_extern_shared = 1;           /* placed at the dynamic base at launch */
    } else if (bv.space == BC_SP_SHARED) {
        bv.offset = (uint64_t)align_up((int64_t)c->m->shared_static, align);
        c->m->shared_static = bv.offset + bv.size;
    } else {
        uint64_t *sz = bv.space == BC_SP_GLOBAL ? &c->m->global_size : &c->m->const_size;
        uint8_t **img = bv.space == BC_SP_GLOBAL ? &c->m->global_image : &c->m->const_image;
        bv.offset = (uint64_t)align_up((int64_t)*sz, align);
        uint64_t nsz = bv.offset + bv.size;
        if (nsz > ((uint64_t)1 << 32)) { cc_error(c, &v->loc, "module data too large"); return -1; }
        uint8_t *ni = realloc(*img, nsz ? nsz : 1);
        if (!ni) abort();
        memset(ni + *sz, 0, nsz - *sz);
        *img = ni;
        *sz = nsz;
        if (v->init) {
            uint64_t pos = bv.offset;
            init_write(c, bv.space, idx, *img, nsz, &pos, v->init, v->type, 0);
        }
    }
    if (v->init && bv.space == BC_SP_SHARED)
        cc_error(c, &v->loc, "a .shared variable cannot have an initializer");
    VEC_PUSH(c->vars, bv);
    return idx;
}

static void global_sym(bc_cc *c, const char *name, cc_sym s, const ast_loc *loc)
{
    int *old = strmap_get(&c->globals, name);
    if (old) {
        cc_sym *o = &c->gsyms.v[*old];
        if (o->kind == CC_SYM_FUNC && s.kind == CC_SYM_FUNC) { *o = s; return; }
        cc_error(c, loc, "'%s' is declared twice", name);
        return;
    }
    int idx = VEC_PUSH(c->gsyms, s);
    strmap_put(&c->globals, name, idx);
}

/* ---- functions: signatures -------------------------------------------------------- */

static int builtin_of(const char *name)
{
    if (!strcmp(name, "vprintf")) return BC_BUILTIN_VPRINTF;
    if (!strcmp(name, "__assertfail")) return BC_BUILTIN_ASSERTFAIL;
    if (!strcmp(name, "malloc")) return BC_BUILTIN_MALLOC;
    if (!strcmp(name, "free")) return BC_BUILTIN_FREE;
    return 0;
}

static bc_param *params_of(bc_cc *c, const ast_var *v, int n, int64_t *off)
{
    bc_param *p = calloc((size_t)(n ? n : 1), sizeof *p);
    if (!p) abort();
    for (int i = 0; i < n; i++) {
        int64_t size = var_size(&v[i]);
        if (size < 0 || size > (1 << 16)) { cc_error(c, &v[i].loc, "parameter '%s' is too large", v[i].name); size = 0; }
        int al = var_align(&v[i]);
        *off = align_up(*off, al);
        p[i].name = v[i].name;
        p[i].type = v[i].type;
        p[i].size = (int)size;
        p[i].align = al;
        p[i].offset = (int)*off;
        *off += size;
    }
    return p;
}

/* Declares (or completes) a function from its header. */
static void declare_func(bc_cc *c, const ast_func *f)
{
    int *old = strmap_get(&c->globals, f->name);
    int idx;
    if (old && c->gsyms.v[*old].kind == CC_SYM_FUNC) {
        idx = c->gsyms.v[*old].idx;
        if (!f->has_body) return;                 /* a second prototype */
        if (c->bodies.v[idx]) {       /* (its body is compiled in pass 2, after every header) */
            cc_error(c, &f->loc, "function '%s' is defined twice", f->name);
            return;
        }
        bc_func *of = &c->funcs.v[idx];
        free(of->params); free(of->rets);
    } else {
        bc_func z;
        memset(&z, 0, sizeof z);
        idx = VEC_PUSH(c->funcs, z);
        VEC_PUSH(c->bodies, (const ast_func *)NULL);
        cc_sym s = { CC_SYM_FUNC, idx, 0, 0, AST_T_NONE };
        global_sym(c, f->name, s, &f->loc);
    }
    bc_func *bf = &c->funcs.v[idx];
    if (f->has_body) c->bodies.v[idx] = f;
    bf->name = f->name;
    bf->is_entry = f->is_entry;
    bf->line = f->loc.line;
    bf->builtin = f->has_body ? 0 : builtin_of(f->name);
    bf->kind = f->has_body ? BC_FN_DEFINED : bf->builtin ? BC_FN_BUILTIN : BC_FN_EXTERN;
    int64_t off = 0;
    bf->nrets = f->nrets;
    bf->rets = params_of(c, f->rets, f->nrets, &off);
    bf->nparams = f->nparams;
    bf->params = params_of(c, f->params, f->nparams, &off);
    bf->param_size = (int)align_up(off, 8);
    for (int i = 0; i < 3; i++) { bf->reqntid[i] = f->reqntid[i]; bf->maxntid[i] = f->maxntid[i]; }
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].space == AST_SPACE_REG && f->is_entry)
            cc_error(c, &f->params[i].loc, "a kernel cannot take .reg parameters ('%s')", f->params[i].name);
}

/* ---- registers and scopes ------------------------------------------------------------ */

static void scope_open(bc_cc *c)
{
    VEC_PUSH(c->scope_regnames, (int)c->regname_open.n);
    VEC_PUSH(c->scope_regs, (int)c->regs.n);
    VEC_PUSH(c->scope_locals, (int)c->locals.n);
    VEC_PUSH(c->scope_ranges, (int)c->ranges.n);
    c->depth++;
}

static void scope_close(bc_cc *c)
{
    if (!c->depth) return;
    c->depth--;
    int ro = c->scope_regnames.v[--c->scope_regnames.n];
    for (int i = (int)c->regname_open.n - 1; i >= ro; i--) c->regnames.v[c->regname_open.v[i]].pc_end = (uint32_t)c->code.n;
    c->regname_open.n = (size_t)ro;
    int r = c->scope_regs.v[--c->scope_regs.n];
    for (int i = (int)c->regs.n - 1; i >= r; i--)
        strmap_put(&c->regmap, c->regs.v[i].name, c->regs.v[i].prev);
    c->regs.n = (size_t)r;
    int l = c->scope_locals.v[--c->scope_locals.n];
    for (int i = (int)c->locals.n - 1; i >= l; i--)
        strmap_put(&c->localmap, c->locals.v[i].name, c->locals.v[i].prev);
    c->locals.n = (size_t)l;
    c->ranges.n = (size_t)c->scope_ranges.v[--c->scope_ranges.n];
}

int cc_frame_tmp(bc_cc *c, int size)
{
    c->frame = (int)align_up(c->frame, size >= 8 ? 8 : size > 0 ? size : 1);
    int at = c->frame;
    c->frame += size > 0 ? size : 1;
    return at;
}

static void declare_reg(bc_cc *c, const ast_regdecl *r)
{
    int vec = r->vec ? r->vec : 1;
    int64_t count = r->count ? r->count : 1;
    if (count < 0 || count > (int64_t)BC_MAX_SLOTS || (uint64_t)(c->total_regs + c->nregs) + (uint64_t)(count * vec) > BC_MAX_SLOTS) {
        cc_error(c, NULL, "too many registers (%s<%lld>; the limit is %u per module)", r->name,
                 (long long)r->count, BC_MAX_SLOTS);
        return;
    }
    uint32_t slot = CC_TAG_REG | (c->total_regs + c->nregs);
    c->nregs += (uint32_t)(count * vec);
    bc_regname rn = { c->fn_index, r->name, r->type, r->vec, r->count, slot, (uint32_t)c->code.n, 0 };
    VEC_PUSH(c->regname_open, VEC_PUSH(c->regnames, rn));
    if (r->count) {
        cc_range g = { r->name, r->count, slot, r->type, c->depth };
        VEC_PUSH(c->ranges, g);
        return;
    }
    int *old = strmap_get(&c->regmap, r->name);
    cc_reg e = { r->name, slot, r->type, r->vec, old ? *old : -1 };
    int idx = VEC_PUSH(c->regs, e);
    strmap_put(&c->regmap, r->name, idx);
}

/* Splits "%r12" into prefix length and index; -1 if no trailing digits. */
static int64_t name_index(const char *s, size_t *plen)
{
    size_t n = strlen(s), i = n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') i--;
    if (i == n || n - i > 9) return -1;
    if (n - i > 1 && s[i] == '0') return -1;     /* %r01 is not %r1 */
    *plen = i;
    return strtoll(s + i, NULL, 10);
}

static const char *const sreg_names[] = {
    "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid",
    "%nsmid", "%gridid", "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt",
    "%lanemask_ge", "%clock", "%clock64", "%globaltimer", "%dynamic_smem_size",
    "%total_smem_size", "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
    "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster", "%pm0", "%envreg"
};

/* Special register named s: id (BC_SR_*) and component 0..2; -1 if none. */
int cc_sreg(const char *s, int *comp)
{
    /* asked of every register operand: nvcc's own names (%r, %rd, %rs, %f, %fd, %h, %p) start
     * as no special register does (only %reserved_... and %pm0 share a first letter) */
    if ((s[1] == 'r' && s[2] != 'e') || (s[1] == 'p' && s[2] != 'm') || s[1] == 'f' || s[1] == 'h') return -1;
    static const char rs[] = "%reserved_smem_offset_";
    if (!strncmp(s, "%globaltimer_", 13) && (!strcmp(s + 13, "lo") || !strcmp(s + 13, "hi"))) {
        *comp = s[13] == 'l' ? 1 : 2;  /* the 32-bit halves of %globaltimer */
        return BC_SR_GLOBALTIMER;
    }
    if (!strncmp(s, rs, sizeof rs - 1)) {
        const char *t = s + sizeof rs - 1;
        if (!strcmp(t, "begin")) *comp = 0;
        else if (!strcmp(t, "end")) *comp = 1;
        else if (!strcmp(t, "cap")) *comp = 2;
        else if ((t[0] == '0' || t[0] == '1') && !t[1]) *comp = 3 + (t[0] - '0');
        else return -1;
        return BC_SR_RESERVED_SMEM;
    }
    const char *dot = strchr(s, '.');
    size_t n = dot ? (size_t)(dot - s) : strlen(s);
    *comp = 0;
    if (dot) {
        if (!strcmp(dot, ".x")) *comp = 0;
        else if (!strcmp(dot, ".y")) *comp = 1;
        else if (!strcmp(dot, ".z")) *comp = 2;
        else return -1;
    }
    /* asked of every register operand: the second character rejects most names at once */
    for (size_t i = 0; i < sizeof sreg_names / sizeof *sreg_names; i++)
        if (sreg_names[i][1] == s[1] && strlen(sreg_names[i]) == n && !strncmp(sreg_names[i], s, n)) return (int)i;
    if (!strncmp(s, "%envreg", 7) && s[7] >= '0' && s[7] <= '9') {   /* %envreg0..31: the number is the component */
        char *e;
        long v = strtol(s + 7, &e, 10);
        if (!*e && v < 32) { *comp = (int)v; return BC_SR_ENVREG; }
    }
    if (!strncmp(s, "%pm", 3) || !strncmp(s, "%envreg", 7)) return BC_SR_PM0;
    return -1;
}

uint32_t cc_reg_lookup(bc_cc *c, const ast_operand *o, ast_type *type)
{
    const char *name = o->name;
    char base[256];
    int comp = -1;
    /* vector component: %v1.x */
    const char *dot = strrchr(name, '.');
    if (dot && dot != name && strlen(dot) == 2 && strchr("xyzwrgba", dot[1]) && (size_t)(dot - name) < sizeof base) {
        memcpy(base, name, (size_t)(dot - name));
        base[dot - name] = 0;
        comp = (int)(strchr("xyzw", dot[1]) ? strchr("xyzw", dot[1]) - "xyzw" : strchr("rgba", dot[1]) - "rgba");
        name = base;
    }
    int *ri = strmap_get(&c->regmap, name);
    int exact = ri && *ri >= 0 ? *ri : -1;
    size_t plen;
    int64_t ix = name_index(name, &plen);
    /* innermost range declaration that covers the name */
    for (size_t i = c->ranges.n; ix >= 0 && i-- > 0;) {
        const cc_range *g = &c->ranges.v[i];
        if (strlen(g->prefix) != plen || strncmp(g->prefix, name, plen) || ix >= g->count) continue;
        if (exact >= 0) {
            /* an exact name declared in a deeper scope wins */
            int edepth = 0;
            for (size_t k = 0; k < c->scope_regs.n; k++)
                if (exact >= c->scope_regs.v[k]) edepth = (int)k + 1;
            if (edepth > g->depth) break;
        }
        if (type) *type = g->type;
        if (comp > 0) { cc_error(c, &o->loc, "'%s' is not a vector register", o->name); return 0; }
        return g->slot + (uint32_t)ix;
    }
    if (exact >= 0) {
        const cc_reg *r = &c->regs.v[exact];
        if (type) *type = r->type;
        if (comp >= 0) {
            if (!r->vec || comp >= r->vec) { cc_error(c, &o->loc, "'%s' has no component .%c", name, dot[1]); return 0; }
            return r->slot + (uint32_t)comp;
        }
        return r->slot;
    }
    cc_error(c, &o->loc, "undeclared register '%s'", o->name);
    return 0;
}

/* ---- function bodies ------------------------------------------------------------------ */

static void body_var(bc_cc *c, const ast_var *v)
{
    if (v->space == AST_SPACE_PARAM || v->space == AST_SPACE_LOCAL) {
        local_put(c, v->name, frame_var(c, v));
        return;
    }
    int idx = add_var(c, v);
    if (idx < 0) return;
    cc_sym s = { CC_SYM_VAR, idx, 0, 0, v->type };
    local_put(c, v->name, s);
}

static void resolve_fixups(bc_cc *c)
{
    for (size_t i = 0; i < c->fixups.n; i++) {
        const cc_fixup *f = &c->fixups.v[i];
        int *pc = strmap_get(&c->labels, f->label);
        if (!pc) {
            cc_error(c, &f->loc, "undefined label '%s'", f->label);
            continue;
        }
        if (f->in_extra) c->extra.v[f->pc] = (uint32_t)*pc;
        else {
            c->code.v[f->pc].imm = *pc;
            if ((uint32_t)*pc <= f->pc) c->code.v[f->pc].flags |= BC_IF_BACK;
        }
    }
    c->fixups.n = 0;
}

/* Marks the function's ld/st.local of one unsigned 4- or 8-byte value at
 * FP + imm with 0 <= imm, imm + size <= frame_size and imm aligned to the
 * size as BC_IF_FRAME: every call checks FP + frame_size <= the local size
 * (and a launch the kernel's frame), and FP is a sum of 16-aligned frame
 * sizes, so such an access is in range and aligned for every lane. */
static void mark_frame_accesses(bc_cc *c, const bc_func *bf)
{
    for (size_t pc = bf->pc_begin; pc < c->code.n; pc++) {
        bc_insn *I = &c->code.v[pc];
        if ((I->op != OP_LD_LOCAL && I->op != OP_ST_LOCAL) || I->a != cc_hidden(CC_HID_FP) || I->n != 1) continue;
        if (I->op == OP_LD_LOCAL && I->m2) continue;
        int64_t sz = I->m1;
        if ((sz != 4 && sz != 8) || I->imm < 0 || I->imm % sz || I->imm + sz > bf->frame_size) continue;
        I->flags |= BC_IF_FRAME;
    }
}

static void compile_body(bc_cc *c, const ast_func *f, int fidx)
{
    bc_func *bf = &c->funcs.v[fidx];
    c->fn = bf;
    c->fn_index = fidx;
    c->nregs = 0;
    c->frame = 0;
    c->depth = 0;
    strmap_free(&c->regmap);
    strmap_free(&c->localmap);
    strmap_free(&c->labels);
    c->regs.n = c->ranges.n = c->locals.n = 0;
    c->scope_regs.n = c->scope_locals.n = c->scope_ranges.n = 0;
    c->regname_open.n = c->scope_regnames.n = 0;
    c->tmp_slot = cc_new_reg(c);
    bf->pc_begin = (uint32_t)c->code.n;
    scope_open(c);
    /* parameters: kernel params live in the param buffer, .func ones in the frame */
    int64_t off = 0;
    c->afn = f;
    for (int i = 0; i < f->nrets + f->nparams; i++) {
        const ast_var *v = i < f->nrets ? &f->rets[i] : &f->params[i - f->nrets];
        const bc_param *p = i < f->nrets ? &bf->rets[i] : &bf->params[i - f->nrets];
        off = p->offset + p->size;
        if (v->space == AST_SPACE_REG) continue;      /* declared below */
        cc_sym s = { f->is_entry ? CC_SYM_KPARAM : CC_SYM_FRAME, 0, p->offset, p->size, v->type };
        local_put(c, v->name, s);
    }
    if (!f->is_entry) c->frame = (int)align_up(off, 8);
    /* .reg parameters are registers of the body, loaded from the frame on
     * entry; .reg results are stored back by each ret (compile_insn.c) */
    for (int i = 0; i < f->nrets + f->nparams; i++) {
        const ast_var *v = i < f->nrets ? &f->rets[i] : &f->params[i - f->nrets];
        if (v->space != AST_SPACE_REG) continue;
        ast_regdecl rd = { v->type, v->vec, v->name, 0 };
        declare_reg(c, &rd);
        if (i >= f->nrets) {
            const bc_param *p = &bf->params[i - f->nrets];
            int *ri = strmap_get(&c->regmap, v->name);
            if (ri && *ri >= 0) cc_frame_ld(c, c->regs.v[*ri].slot, p->offset, p->size);
        }
    }
    /* labels first, so forward branches need no second look-up pass */
    for (int i = 0; i < f->nstmts; i++) {
        const ast_stmt *st = &f->stmts[i];
        if (st->kind == AST_ST_LABEL || st->kind == AST_ST_BRANCHTARGETS) {
            const char *l = st->kind == AST_ST_LABEL ? st->u.label : st->u.targets.label;
            if (strmap_get(&c->labels, l)) { c->st = st; cc_error(c, NULL, "label '%s' defined twice", l); }
            else strmap_put(&c->labels, l, -1);
        }
    }
    for (int i = 0; i < f->nstmts && c->nerrors < 100; i++) {
        const ast_stmt *st = &f->stmts[i];
        c->st = st;
        switch (st->kind) {
        case AST_ST_INSN: cc_insn(c, &st->u.insn, st); break;
        case AST_ST_LABEL: {
            strmap_put(&c->labels, st->u.label, (int)c->code.n);
            bc_label li = { fidx, st->u.label, (uint32_t)c->code.n };
            VEC_PUSH(c->labelinfo, li);
            break;
        }
        case AST_ST_BRANCHTARGETS: {
            uint32_t at = (uint32_t)c->extra.n;
            for (int k = 0; k < st->u.targets.n; k++) {
                VEC_PUSH(c->extra, 0);
                cc_fixup_label(c, at + (uint32_t)k, st->u.targets.names[k], st->loc, 1);
            }
            /* the table's label maps to (extra index | count << 24), read by brx */
            strmap_put(&c->labels, st->u.targets.label, (int)(at | ((uint32_t)st->u.targets.n << 24)));
            break;
        }
        case AST_ST_REG: declare_reg(c, &st->u.reg); break;
        case AST_ST_VAR: body_var(c, &st->u.var); break;
        case AST_ST_OPEN: scope_open(c); break;
        case AST_ST_CLOSE: scope_close(c); break;
        case AST_ST_PRAGMA: break;
        }
    }
    /* a body that falls off its end returns */
    bc_insn ret;
    memset(&ret, 0, sizeof ret);
    ret.op = OP_RET;
    ret.guard = BC_NO_GUARD;
    c->st = NULL;
    ret.line = f->loc.line;
    ret.src = -1;
    VEC_PUSH(c->code, ret);
    resolve_fixups(c);
    while (c->depth) scope_close(c);
    bf->pc_end = (uint32_t)c->code.n;
    bf->slot_base = c->total_regs;
    bf->nslots = c->nregs;
    bf->frame_size = (int)align_up(c->frame, 16);
    for (size_t i = 0; i < c->frame_patches.n; i++) c->extra.v[c->frame_patches.v[i]] = (uint32_t)bf->frame_size;
    c->frame_patches.n = 0;
    mark_frame_accesses(c, bf);
    c->total_regs += c->nregs;
    c->st = NULL;
}

/* ---- finishing: slot layout ---------------------------------------------------------------- */

static uint32_t fix_slot(const bc_module *m, uint32_t v)
{
    uint32_t id = v & ~CC_TAG_MASK;
    switch (v & CC_TAG_MASK) {
    case CC_TAG_CONST: return id * BC_WARP;
    case CC_TAG_HIDDEN: return (m->nconsts + id) * BC_WARP;
    case CC_TAG_REG: return (m->nconsts + CC_NHIDDEN + id) * BC_WARP;
    default: return v;        /* untagged: not a slot */
    }
}

static void finish(bc_cc *c)
{
    bc_module *m = c->m;
    m->nconsts = (uint32_t)c->consts.n;
    m->nslots = m->nconsts + CC_NHIDDEN + c->total_regs;
    m->slot_fp = fix_slot(m, cc_hidden(CC_HID_FP));
    m->slot_cc = fix_slot(m, cc_hidden(CC_HID_CC));
    m->slot_sink = fix_slot(m, cc_hidden(CC_HID_SINK));
    for (size_t i = 0; i < c->code.n; i++) {
        bc_insn *in = &c->code.v[i];
        in->d = fix_slot(m, in->d); in->a = fix_slot(m, in->a); in->b = fix_slot(m, in->b);
        in->c = fix_slot(m, in->c); in->e = fix_slot(m, in->e);
        if (in->guard != BC_NO_GUARD) in->guard = fix_slot(m, in->guard);
        if (bc_op_fmt[in->op] == F_COLL) in->x = fix_slot(m, in->x);
    }
    for (size_t i = 0; i + 1 < c->slot_lists.n; i += 2)
        for (uint32_t k = 0; k < c->slot_lists.v[i + 1]; k++)
            c->extra.v[c->slot_lists.v[i] + k] = fix_slot(m, c->extra.v[c->slot_lists.v[i] + k]);
    for (int i = 0; i < (int)c->funcs.n; i++)
        c->funcs.v[i].slot_base = (m->nconsts + CC_NHIDDEN + c->funcs.v[i].slot_base);
    m->code = c->code.v; m->ncode = (uint32_t)c->code.n;
    m->extra = c->extra.v; m->nextra = (uint32_t)c->extra.n;
    m->consts = c->consts.v;
    m->const_relocs = c->const_relocs.v; m->nconst_relocs = (int)c->const_relocs.n;
    m->funcs = c->funcs.v; m->nfuncs = (int)c->funcs.n;
    m->vars = c->vars.v; m->nvars = (int)c->vars.n;
    m->relocs = c->relocs.v; m->nrelocs = (int)c->relocs.n;
    m->srclocs = c->srclocs.v; m->nsrclocs = (int)c->srclocs.n;
    for (size_t i = 0; i < c->regnames.n; i++) c->regnames.v[i].slot = fix_slot(m, c->regnames.v[i].slot);
    m->regnames = c->regnames.v; m->nregnames = (int)c->regnames.n;
    m->labels = c->labelinfo.v; m->nlabels = (int)c->labelinfo.n;
    memset(&c->regnames, 0, sizeof c->regnames); memset(&c->labelinfo, 0, sizeof c->labelinfo);
    memset(&c->code, 0, sizeof c->code); memset(&c->extra, 0, sizeof c->extra);
    memset(&c->consts, 0, sizeof c->consts); memset(&c->const_relocs, 0, sizeof c->const_relocs);
    memset(&c->funcs, 0, sizeof c->funcs); memset(&c->vars, 0, sizeof c->vars);
    memset(&c->relocs, 0, sizeof c->relocs); memset(&c->srclocs, 0, sizeof c->srclocs);
}

static void cc_free(bc_cc *c)
{
    for (size_t i = 0; i < c->funcs.n; i++) { free(c->funcs.v[i].params); free(c->funcs.v[i].rets); }
    VEC_FREE(c->code); VEC_FREE(c->extra); VEC_FREE(c->consts); VEC_FREE(c->const_relocs);
    VEC_FREE(c->funcs); VEC_FREE(c->bodies); VEC_FREE(c->vars); VEC_FREE(c->relocs); VEC_FREE(c->srclocs);
    VEC_FREE(c->slot_lists); VEC_FREE(c->gsyms); VEC_FREE(c->regs); VEC_FREE(c->ranges);
    VEC_FREE(c->locals); VEC_FREE(c->scope_regs); VEC_FREE(c->scope_locals);
    VEC_FREE(c->scope_ranges); VEC_FREE(c->fixups); VEC_FREE(c->src_last); VEC_FREE(c->frame_patches);
    VEC_FREE(c->regnames); VEC_FREE(c->regname_open); VEC_FREE(c->scope_regnames); VEC_FREE(c->labelinfo);
    strmap_free(&c->globals); strmap_free(&c->regmap); strmap_free(&c->localmap);
    strmap_free(&c->labels);
    free(c->chash_keys); free(c->chash_vals);
    free(c->loc_keys); free(c->loc_vals);
    strmap_free(&c->debug_map);
}

/* Resolves a symbol's address as an operand value: a constant slot (module
 * variables, kernel params, functions) or FP-relative (frame variables,
 * returned through *fp_rel with the offset in the const). */
uint32_t cc_sym_addr(bc_cc *c, const ast_operand *o, int *fp_rel, int *space)
{
    const cc_sym *s = cc_sym_lookup(c, o->name);
    *fp_rel = 0;
    if (!s) { cc_error(c, &o->loc, "undefined symbol '%s'", o->name); return cc_const(c, 0); }
    switch (s->kind) {
    case CC_SYM_VAR: {
        const bc_var *v = &c->vars.v[s->idx];
        *space = v->space;
        if (v->space == BC_SP_GLOBAL || v->space == BC_SP_SHARED) return cc_const_var(c, s->idx, o->ival);
        return cc_const(c, v->offset + (uint64_t)o->ival);
    }
    case CC_SYM_KPARAM: *space = BC_SP_KPARAM; return cc_const(c, (uint64_t)(s->offset + o->ival));
    case CC_SYM_FRAME: *space = BC_SP_LOCAL; *fp_rel = 1; return cc_const(c, (uint64_t)(s->offset + o->ival));
    case CC_SYM_FUNC: *space = -1; return cc_const(c, BC_FUNC_ADDR_BASE + (uint64_t)s->idx);
    default: break;
    }
    cc_error(c, &o->loc, "'%s' cannot be used as a value", o->name);
    return cc_const(c, 0);
}

const bc_var *cc_var(bc_cc *c, int idx) { return &c->vars.v[idx]; }
const bc_func *cc_func(bc_cc *c, int idx) { return &c->funcs.v[idx]; }
void cc_note_frame_patch(bc_cc *c, uint32_t at) { VEC_PUSH(c->frame_patches, at); }

bc_module *bc_compile(const ast_module *am, diag_list *diags)
{
    bc_cc cc;
    memset(&cc, 0, sizeof cc);
    cc.ast = am;
    cc.diags = diags;
    bc_module *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    cc.m = m;
    m->path = am->path;
    m->target_sm = 90;
    if (am->target && !strncmp(am->target, "sm_", 3)) m->target_sm = atoi(am->target + 3);
    /* .file table */
    int maxf = 0;
    for (int i = 0; i < am->nfiles; i++) if (am->files[i].index > maxf && am->files[i].index < 1 << 20) maxf = am->files[i].index;
    m->nfiles = maxf + 1;
    m->files = calloc((size_t)m->nfiles, sizeof *m->files);
    for (int i = 0; i < am->nfiles; i++)
        if (am->files[i].index >= 0 && am->files[i].index < m->nfiles) m->files[am->files[i].index] = am->files[i].path;
    /* pass 1: module variables and function headers, in order */
    for (int i = 0; i < am->nitems; i++) {
        const ast_item *it = &am->items[i];
        if (it->kind == AST_ITEM_FUNC) { declare_func(&cc, it->u.func); continue; }
        const ast_var *v = it->u.var;
        int idx = add_var(&cc, v);
        if (idx < 0) continue;
        cc_sym s = { CC_SYM_VAR, idx, 0, 0, v->type };
        global_sym(&cc, v->name, s, &v->loc);
    }
    /* .alias name, target: the name denotes the target function */
    for (int i = 0; i < am->naliases; i++) {
        const ast_alias *a = &am->aliases[i];
        int *ti = strmap_get(&cc.globals, a->target);
        if (!ti || cc.gsyms.v[*ti].kind != CC_SYM_FUNC) {
            cc_error(&cc, &a->target_loc, ".alias target '%s' is not a function", a->target);
            continue;
        }
        global_sym(&cc, a->name, cc.gsyms.v[*ti], &a->loc);
    }
    /* pass 2: bodies */
    for (int i = 0; i < am->nitems && cc.nerrors < 100; i++) {
        const ast_item *it = &am->items[i];
        if (it->kind != AST_ITEM_FUNC || !it->u.func->has_body) continue;
        int *gi = strmap_get(&cc.globals, it->u.func->name);
        /* only the body its header was declared from: a second one (an error) has other parameters */
        if (!gi || cc.gsyms.v[*gi].kind != CC_SYM_FUNC || cc.bodies.v[cc.gsyms.v[*gi].idx] != it->u.func) continue;
        compile_body(&cc, it->u.func, cc.gsyms.v[*gi].idx);
    }
    if (cc.nerrors) {
        cc_free(&cc);
        free(m->files); free(m->global_image); free(m->const_image); free(m);
        return NULL;
    }
    finish(&cc);
    cc_free(&cc);
    m->maybe_uninit = bc_flow_maybe_uninit(m);
    bc_flow_call_saves(m);        /* NULL when out of memory: calls save every register */
    m->store_roots = bc_flow_store_roots(m);
    bc_fuse(m);                     /* m->fused NULL: the dispatch loop runs m->code */
    return m;
}
