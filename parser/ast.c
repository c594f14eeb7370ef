/* ast.c — the module arena, the builder behind the PTX grammar's actions,
 * ast_parse and the small type/space tables of ast.h. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "ast_build.h"

/* ---- arena ---------------------------------------------------------------- */

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} arena_chunk;

struct ast_arena {
    arena_chunk *head;
    size_t total;
};

#define ARENA_CHUNK (64 * 1024)

ast_arena *arena_new(void)
{
    ast_arena *a = calloc(1, sizeof *a);
    if (!a)
        abort();
    return a;
}

void arena_free(ast_arena *a)
{
    if (!a)
        return;
    arena_chunk *c = a->head;
    while (c) {
        arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    free(a);
}

void *arena_alloc(ast_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    arena_chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t sz = n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK;
        c = malloc(sizeof *c + sz);
        if (!c)
            abort();                       /* out of memory */
        c->size = sz;
        c->used = 0;
        if (sz == n && a->head) {          /* big block: keep the head chunk */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
        a->total += sz;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(ast_arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (n)
        memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void ast_module_free(ast_module *m)
{
    if (m)
        arena_free(m->arena);            /* the module itself is in the arena */
}

/* ---- tables -------------------------------------------------------------- */

static const struct { const char *name; int size; } type_tab[AST_T_COUNT] = {
    [AST_T_NONE] = {"", 0},        [AST_T_PRED] = {"pred", 1},
    [AST_T_B8] = {"b8", 1},        [AST_T_B16] = {"b16", 2},
    [AST_T_B32] = {"b32", 4},      [AST_T_B64] = {"b64", 8},
    [AST_T_B128] = {"b128", 16},   [AST_T_U8] = {"u8", 1},
    [AST_T_U16] = {"u16", 2},      [AST_T_U32] = {"u32", 4},
    [AST_T_U64] = {"u64", 8},      [AST_T_S8] = {"s8", 1},
    [AST_T_S16] = {"s16", 2},      [AST_T_S32] = {"s32", 4},
    [AST_T_S64] = {"s64", 8},      [AST_T_F16] = {"f16", 2},
    [AST_T_F16X2] = {"f16x2", 4},  [AST_T_BF16] = {"bf16", 2},
    [AST_T_BF16X2] = {"bf16x2", 4}, [AST_T_F32] = {"f32", 4},
    [AST_T_F64] = {"f64", 8},      [AST_T_TF32] = {"tf32", 4},
    [AST_T_E4M3X2] = {"e4m3x2", 2}, [AST_T_E5M2X2] = {"e5m2x2", 2},
};

ast_type ast_type_from_name(const char *s, size_t n)
{
    if (!s)
        return AST_T_NONE;
    if (n && s[0] == '.') {
        s++;
        n--;
    }
    if (!n)
        return AST_T_NONE;
    for (int t = 1; t < AST_T_COUNT; t++)   /* the first character rejects most names at once */
        if (type_tab[t].name[0] == s[0] && strlen(type_tab[t].name) == n && memcmp(type_tab[t].name, s, n) == 0)
            return (ast_type)t;
    return AST_T_NONE;
}

const char *ast_type_name(ast_type t)
{
    return (unsigned)t < AST_T_COUNT ? type_tab[t].name : "";
}

int ast_type_size(ast_type t)
{
    return (unsigned)t < AST_T_COUNT ? type_tab[t].size : 0;
}

const char *ast_space_name(ast_space s)
{
    static const char *const names[] = {
        "", "reg", "sreg", "const", "global", "local", "param", "shared",
        "tex", "generic"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "";
}

static const char *const mnemonic_tab[] = {
#define MNEMONIC(n) #n,
#include "vm/mnemonics.def"
#undef MNEMONIC
};

int b_is_mnemonic(const char *w, size_t n)
{
    size_t k = 0;
    while (k < n && w[k] != '.')
        k++;
    for (size_t i = 0; i < sizeof mnemonic_tab / sizeof mnemonic_tab[0]; i++) {
        const char *m = mnemonic_tab[i];
        if (m[0] == w[0] && strlen(m) == k && memcmp(m, w, k) == 0)
            return 1;
    }
    return 0;
}

/* ---- diagnostics ---------------------------------------------------------- */

void b_error(ptx_builder *b, int line, int col, const char *fmt, ...)
{
    b->nerrors++;
    if (b->stop)
        return;
    if (line == b->last_err.line && col == b->last_err.col)
        return;                      /* one message per spot: no follow-ons */
    b->last_err.line = line;
    b->last_err.col = col;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (diag_add(b->diags, DIAG_ERROR, b->path, line, col, "%s", msg) < 0)
        b->stop = 1;
    else if (b->diags->max > 0 ? b->diags->n >= b->diags->max
                               : b->diags->n >= 100)
        b->stop = 1;
}

const char *b_quote(char *buf, size_t bufsz, const char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o + 8 >= bufsz || i >= 40) {
            if (o + 4 < bufsz) {
                memcpy(buf + o, "...", 3);
                o += 3;
            }
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
            buf[o++] = (char)c;
        } else if (c == '\\' || c == '\'') {
            buf[o++] = '\\';
            buf[o++] = (char)c;
        } else {
            o += (size_t)snprintf(buf + o, bufsz - o, "\\x%02x", c);
        }
    }
    buf[o < bufsz ? o : bufsz - 1] = 0;
    return buf;
}

/* ---- small helpers -------------------------------------------------------- */

const char *b_str(ptx_builder *b, const char *s, size_t n)
{
    return arena_strndup(b->a, s, n);
}

b_list *b_list_add(ptx_builder *b, b_list *l, void *p, ast_loc at)
{
    if (!l) {
        l = arena_alloc(b->a, sizeof *l);
        l->loc = at;
    }
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 4;
        void **nv = arena_alloc(b->a, (size_t)nc * sizeof *nv);
        if (l->n)
            memcpy(nv, l->v, (size_t)l->n * sizeof *nv);
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = p;
    return l;
}

int64_t b_neg(int64_t v)
{
    return (int64_t)(0 - (uint64_t)v);
}

static int to_int(ptx_builder *b, ast_loc at, int64_t v)
{
    if (v < 0 || v > INT_MAX) {
        b_error(b, at.line, at.col, "value %lld out of range", (long long)v);
        return 0;
    }
    return (int)v;
}

/* ---- register-name scopes (bare names such as `p`, `low`) --------------- */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t rh_find(ptx_builder *b, const char *name)
{
    size_t mask = b->rh_cap - 1, i = (size_t)hash_str(name) & mask;
    while (b->rh[i].name && strcmp(b->rh[i].name, name) != 0)
        i = (i + 1) & mask;
    return i;
}

static void rh_grow(ptx_builder *b)
{
    size_t oc = b->rh_cap, nc = oc ? oc * 2 : 64;
    typeof(b->rh) old = b->rh;
    b->rh = arena_alloc(b->a, nc * sizeof *b->rh);
    b->rh_cap = nc;
    for (size_t i = 0; i < oc; i++)
        if (old[i].name) {
            size_t j = rh_find(b, old[i].name);
            b->rh[j] = old[i];
        }
}

static void scope_reset(ptx_builder *b)
{
    if (b->rh)
        memset(b->rh, 0, b->rh_cap * sizeof *b->rh);
    b->rh_n = 0;
    b->rs_n = 0;
    b->scope = 0;
}

static void scope_add(ptx_builder *b, const char *name)
{
    if (name[0] == '%')
        return;                              /* %-names are registers anyway */
    if ((b->rh_n + 1) * 2 > b->rh_cap)
        rh_grow(b);
    size_t i = rh_find(b, name);
    if (!b->rh[i].name) {
        b->rh[i].name = name;
        b->rh_n++;
    }
    b->rh[i].live++;
    if (b->rs_n == b->rs_cap) {
        size_t nc = b->rs_cap ? b->rs_cap * 2 : 32;
        typeof(b->rstack) ns = arena_alloc(b->a, nc * sizeof *ns);
        if (b->rs_n)
            memcpy(ns, b->rstack, b->rs_n * sizeof *ns);
        b->rstack = ns;
        b->rs_cap = nc;
    }
    b->rstack[b->rs_n].name = b->rh[i].name;
    b->rstack[b->rs_n].scope = b->scope;
    b->rs_n++;
}

static int scope_has(ptx_builder *b, const char *name)
{
    if (!b->rh_n)
        return 0;
    size_t i = rh_find(b, name);
    return b->rh[i].name && b->rh[i].live > 0;
}

static void scope_pop(ptx_builder *b)
{
    while (b->rs_n && b->rstack[b->rs_n - 1].scope >= b->scope) {
        size_t i = rh_find(b, b->rstack[b->rs_n - 1].name);
        if (b->rh[i].name && b->rh[i].live > 0)
            b->rh[i].live--;
        b->rs_n--;
    }
    if (b->scope > 0)
        b->scope--;
}

/* ---- module directives -------------------------------------------------- */

void b_version(ptx_builder *b, ast_loc at, const char *num)
{
    const char *p = num;
    long maj = 0, min = 0;
    int ok = *p >= '0' && *p <= '9';
    while (ok && *p >= '0' && *p <= '9' && maj < 1000)
        maj = maj * 10 + (*p++ - '0');
    if (ok && *p == '.') {
        p++;
        ok = *p >= '0' && *p <= '9';
        while (ok && *p >= '0' && *p <= '9' && min < 1000)
            min = min * 10 + (*p++ - '0');
    } else {
        ok = 0;
    }
    if (!ok || *p) {
        b_error(b, at.line, at.col, "invalid .version number '%s'", num);
        return;
    }
    b->m->version_major = (int)maj;
    b->m->version_minor = (int)min;
}

void b_target(ptx_builder *b, ast_loc at, const char *word)
{
    if (strcmp(word, "debug") == 0)
        b->m->target_debug = 1;
    else if (!b->m->target)
        b->m->target = word;
}

void b_address_size(ptx_builder *b, ast_loc at, int64_t n)
{
    if (n != 32 && n != 64)
        b_error(b, at.line, at.col, ".address_size must be 32 or 64");
    else
        b->m->address_size = (int)n;
}

void b_file(ptx_builder *b, ast_loc at, int64_t idx, const char *path)
{
    ast_file *f = arena_alloc(b->a, sizeof *f);
    f->index = to_int(b, at, idx);
    f->path = path;
    b_list_add(b, &b->files, f, at);
}

static const char *join_strings(ptx_builder *b, b_list *l)
{
    size_t n = 0;
    for (int i = 0; l && i < l->n; i++)
        n += strlen(l->v[i]) + 2;
    char *s = arena_alloc(b->a, n + 1);
    for (int i = 0; l && i < l->n; i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, l->v[i]);
    }
    return s;
}

void b_module_pragma(ptx_builder *b, ast_loc at, b_list *strings)
{
    (void)join_strings(b, strings);          /* module-level pragmas: ignored */
}

/* ---- statements ------------------------------------------------------------ */

static ast_stmt *new_stmt(ptx_builder *b, ast_stmt_kind k, ast_loc at)
{
    if (b->nstmts == b->capstmts) {
        int nc = b->capstmts ? b->capstmts * 2 : 64;
        ast_stmt *ns = arena_alloc(b->a, (size_t)nc * sizeof *ns);
        if (b->nstmts)
            memcpy(ns, b->stmts, (size_t)b->nstmts * sizeof *ns);
        b->stmts = ns;
        b->capstmts = nc;
    }
    ast_stmt *s = &b->stmts[b->nstmts++];
    s->kind = k;
    s->loc = at;
    s->src = b->src_cur;
    return s;
}

void b_label(ptx_builder *b, ast_loc at, const char *name)
{
    new_stmt(b, AST_ST_LABEL, at)->u.label = name;
}

void b_insn(ptx_builder *b, ast_loc at, const char *guard, ast_loc gat,
            const char *mnem, b_list *opds)
{
    ast_stmt *s = new_stmt(b, AST_ST_INSN, at);
    ast_insn *in = &s->u.insn;
    in->text = mnem;
    /* split at the dots */
    int nd = 0;
    for (const char *p = mnem; *p; p++)
        nd += *p == '.';
    in->mods = arena_alloc(b->a, (size_t)(nd + 1) * sizeof *in->mods);
    const char *p = mnem, *q;
    q = strchr(p, '.');
    in->op = q ? b_str(b, p, (size_t)(q - p)) : mnem;
    while (q) {
        p = q + 1;
        q = strchr(p, '.');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (n == 0) {
            char buf[128];
            b_error(b, at.line, at.col, "empty modifier in instruction '%s'",
                    b_quote(buf, sizeof buf, mnem, strlen(mnem)));
            break;
        }
        in->mods[in->nmods++] = b_str(b, p, n);
    }
    if (guard) {
        if (guard[0] == '!') {
            in->guard_neg = 1;
            guard++;
        }
        in->guard = guard;
        in->guard_loc = gat;
    }
    if (opds) {
        in->nopds = opds->n;
        in->opds = (ast_operand **)opds->v;
        /* `(4*8)` parses as a one-item list: an immediate except in a call */
        for (int i = 0; strcmp(in->op, "call") != 0 && i < in->nopds; i++) {
            ast_operand *o = in->opds[i];
            if (o->kind == AST_OPD_LIST && o->nsub == 1 && o->sub[0]->kind == AST_OPD_INT)
                in->opds[i] = o->sub[0];
        }
    }
}

void b_scope_open(ptx_builder *b, ast_loc at)
{
    new_stmt(b, AST_ST_OPEN, at);
    b->scope++;
}

void b_scope_close(ptx_builder *b, ast_loc at)
{
    new_stmt(b, AST_ST_CLOSE, at);
    scope_pop(b);
}

void b_loc(ptx_builder *b, ast_loc at, int64_t f, int64_t l, int64_t c)
{
    ast_srcloc s = {0};
    s.file = to_int(b, at, f);
    s.line = to_int(b, at, l);
    s.col = to_int(b, at, c);
    b->src_cur = s;
}

void b_loc_inlined(ptx_builder *b, ast_loc at, int64_t f, int64_t l, int64_t c,
                   const char *kw1, const char *fname, const char *kw2,
                   ast_loc kw2_at, int64_t inf, int64_t inl, int64_t inc)
{
    if (strcmp(kw1, "function_name") != 0) {
        b_error(b, at.line, at.col, "expected 'function_name' in .loc");
        return;
    }
    if (strcmp(kw2, "inlined_at") != 0) {
        b_error(b, kw2_at.line, kw2_at.col, "expected 'inlined_at' in .loc");
        return;
    }
    b_loc(b, at, f, l, c);
    b->src_cur.function_name = fname;
    b->src_cur.function_base = fname;
    b->src_cur.in_file = to_int(b, at, inf);
    b->src_cur.in_line = to_int(b, at, inl);
    b->src_cur.in_col = to_int(b, at, inc);
}

void b_pragma(ptx_builder *b, ast_loc at, b_list *strings)
{
    new_stmt(b, AST_ST_PRAGMA, at)->u.text = join_strings(b, strings);
}

void b_branchtargets(ptx_builder *b, ast_loc at, const char *label, b_list *names)
{
    ast_stmt *s = new_stmt(b, AST_ST_BRANCHTARGETS, at);
    s->u.targets.label = label;
    s->u.targets.n = names ? names->n : 0;
    s->u.targets.names = names ? (const char **)names->v : NULL;
}

void b_calltargets(ptx_builder *b, ast_loc at, const char *label, b_list *names)
{
    /* a label (as before) that also lists the functions */
    b_label(b, at, label);
    ast_stmt *s = &b->stmts[b->nstmts - 1];
    s->ncalltargets = names ? names->n : 0;
    s->calltargets = names ? (const char **)names->v : NULL;
}

static void apply_perf(ptx_builder *b, ast_func *f, b_perf *p);

static void copy_params(ptx_builder *b, b_list *l, int *n, ast_var **v)
{
    if (!l)
        return;
    *n = l->n;
    *v = arena_alloc(b->a, (size_t)l->n * sizeof **v);
    for (int i = 0; i < l->n; i++)
        (*v)[i] = *(ast_var *)l->v[i];
}

void b_callprototype(ptx_builder *b, ast_loc at, const char *label, b_list *rets,
                     const char *name, b_list *params, b_list *perfs)
{
    /* a label (as before) carrying the signature: `proto: .callprototype
     * (.param .b32 _) _ (.param .b32 _);` */
    ast_func *f = arena_alloc(b->a, sizeof *f);
    f->loc = at;
    f->name = label;
    if (strcmp(name, "_") != 0) {
        char buf[128];
        b_error(b, at.line, at.col, "a .callprototype is named '_', not '%s'",
                b_quote(buf, sizeof buf, name, strlen(name)));
    }
    copy_params(b, rets, &f->nrets, &f->rets);
    copy_params(b, params, &f->nparams, &f->params);
    for (int i = 0; perfs && i < perfs->n; i++)
        apply_perf(b, f, perfs->v[i]);
    b_label(b, at, label);
    b->stmts[b->nstmts - 1].proto = f;
}

void b_alias(ptx_builder *b, ast_loc at, const char *alias, const char *target,
             ast_loc target_at)
{
    ast_alias *a = arena_alloc(b->a, sizeof *a);
    a->loc = at;
    a->name = alias;
    a->target = target;
    a->target_loc = target_at;
    b_list_add(b, &b->aliases, a, at);
}

/* `.loc ..., function_name sym+off`: the name becomes "sym+off"; its string
 * is added to debug_strs once the module's .section .debug_str is read */
typedef struct b_fnoff {
    const char *label, *base;
    int64_t off;
} b_fnoff;

void b_loc_fn_offset(ptx_builder *b, ast_loc at, int64_t off)
{
    const char *base = b->src_cur.function_name;
    if (!base)
        return;                                  /* b_loc_inlined failed */
    if (off < 0 || off > INT_MAX) {
        b_error(b, at.line, at.col, "function_name offset %lld out of range", (long long)off);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "+%lld", (long long)off);
    size_t n = strlen(base), k = strlen(buf);
    char *lab = arena_alloc(b->a, n + k + 1);
    memcpy(lab, base, n);
    memcpy(lab + n, buf, k + 1);
    b->src_cur.function_base = base;
    b->src_cur.function_off = off;
    b->src_cur.function_name = lab;
    if (off == 0) {
        b->src_cur.function_name = base;
        return;
    }
    b_fnoff *last = b->fnoffs.n ? b->fnoffs.v[b->fnoffs.n - 1] : NULL;
    if (last && last->off == off && strcmp(last->base, base) == 0) {
        b->src_cur.function_name = last->label;  /* the same name again */
        return;
    }
    b_fnoff *e = arena_alloc(b->a, sizeof *e);
    e->label = lab;
    e->base = base;
    e->off = off;
    b_list_add(b, &b->fnoffs, e, at);
}

/* ---- declarations ------------------------------------------------------- */

b_spec *b_spec_add(ptx_builder *b, b_spec *s, int what, int64_t v, ast_loc at)
{
    if (!s)
        s = arena_alloc(b->a, sizeof *s);
    switch (what) {
    case B_SPEC_ALIGN:
        if (v <= 0 || v > (1 << 20) || (v & (v - 1))) {
            b_error(b, at.line, at.col, "alignment must be a power of two");
            s->bad = 1;
        } else if (s->ptr) {
            s->ptr_align = (int)v;
        } else {
            s->align = (int)v;
        }
        break;
    case B_SPEC_TYPE:
        if (s->type) {
            b_error(b, at.line, at.col, "more than one type in declaration");
            s->bad = 1;
        }
        s->type = (ast_type)v;
        break;
    case B_SPEC_VEC:
        if (v != 2 && v != 4) {
            b_error(b, at.line, at.col, "unsupported vector width .v%d", (int)v);
            s->bad = 1;
        }
        s->vec = (int)v;
        break;
    case B_SPEC_PTR:
        s->ptr = 1;
        break;
    case B_SPEC_SPACE:
        if (!s->ptr) {
            b_error(b, at.line, at.col, "unexpected state space .%s in declaration",
                    ast_space_name((ast_space)v));
            s->bad = 1;
        }
        s->ptr_space = (ast_space)v;
        break;
    }
    return s;
}

b_dims *b_dim(ptx_builder *b, b_dims *d, int64_t n, ast_loc at)
{
    b_dims *nd = arena_alloc(b->a, sizeof *nd);
    if (d)
        *nd = *d;
    if (nd->n >= B_MAX_DIMS) {
        b_error(b, at.line, at.col, "too many array dimensions (limit %d)", B_MAX_DIMS);
        return nd;
    }
    nd->d[nd->n++] = n;
    return nd;
}

b_dims *b_dim_expr(ptx_builder *b, b_dims *d, b_cval n, ast_loc at)
{
    if (!n.bad && n.v < 0) {
        b_error(b, at.line, at.col, "array size %lld is negative", (long long)n.v);
        n.v = 0;
    }
    return b_dim(b, d, n.bad ? 0 : n.v, at);
}

b_declarator *b_declarator_new(ptx_builder *b, ast_loc at, const char *name,
                               b_dims *dims, ast_init *init)
{
    b_declarator *d = arena_alloc(b->a, sizeof *d);
    d->loc = at;
    d->name = name;
    if (dims) {
        d->ndims = dims->n;
        memcpy(d->dims, dims->d, sizeof d->dims);
    }
    d->init = init;
    return d;
}

b_declarator *b_declarator_range(ptx_builder *b, ast_loc at, const char *name,
                                 int64_t count, ast_loc count_at)
{
    b_declarator *d = arena_alloc(b->a, sizeof *d);
    d->loc = at;
    d->name = name;
    d->is_range = 1;
    d->count = count;
    if (count < 0 || count > B_MAX_REG_RANGE) {
        char buf[128];
        b_error(b, count_at.line, count_at.col,
                "register range %s<%llu> too large (limit %d)",
                b_quote(buf, sizeof buf, name, strlen(name)),
                (unsigned long long)count, B_MAX_REG_RANGE);
        d->count = 0;
    }
    return d;
}

b_decl *b_decl_new(ptx_builder *b, ast_loc at, int linkage, ast_space sp,
                   b_spec *spec, b_list *names)
{
    b_decl *d = arena_alloc(b->a, sizeof *d);
    d->loc = at;
    d->linkage = linkage;
    d->space = sp;
    d->spec = spec;
    d->names = names;
    if (spec && !spec->bad && !spec->type)
        b_error(b, at.line, at.col, "declaration without a type");
    return d;
}

static void fill_var(ast_var *v, b_decl *d, b_declarator *x)
{
    v->loc = x->loc;
    v->space = d->space;
    v->linkage = d->linkage;
    if (d->spec) {
        v->align = d->spec->align;
        v->type = d->spec->type;
        v->vec = d->spec->vec;
        v->ptr = d->spec->ptr;
        v->ptr_space = d->spec->ptr_space;
        v->ptr_align = d->spec->ptr_align;
    }
    v->name = x->name;
    v->ndims = x->ndims;
    memcpy(v->dims, x->dims, sizeof v->dims);
    v->init = x->init;
}

static int var_space_ok(ptx_builder *b, b_decl *d)
{
    switch (d->space) {
    case AST_SPACE_CONST: case AST_SPACE_GLOBAL: case AST_SPACE_LOCAL:
    case AST_SPACE_PARAM: case AST_SPACE_SHARED:
        return 1;
    default:
        b_error(b, d->loc.line, d->loc.col,
                "variables in state space .%s are not supported",
                ast_space_name(d->space));
        return 0;
    }
}

static int check_var_declarator(ptx_builder *b, b_declarator *x)
{
    if (x->is_range) {
        b_error(b, x->loc.line, x->loc.col,
                "a name range <N> is only allowed in .reg declarations");
        return 0;
    }
    return 1;
}

void b_item_decl(ptx_builder *b, b_decl *d)
{
    if (d->space == AST_SPACE_REG) {
        b_error(b, d->loc.line, d->loc.col,
                ".reg declarations are only allowed inside a function");
        return;
    }
    if (!var_space_ok(b, d))
        return;
    for (int i = 0; d->names && i < d->names->n; i++) {
        b_declarator *x = d->names->v[i];
        if (!check_var_declarator(b, x))
            continue;
        ast_var *v = arena_alloc(b->a, sizeof *v);
        fill_var(v, d, x);
        ast_item *it = arena_alloc(b->a, sizeof *it);
        it->kind = AST_ITEM_VAR;
        it->u.var = v;
        b_list_add(b, &b->items, it, d->loc);
    }
}

void b_stmt_decl(ptx_builder *b, b_decl *d)
{
    if (d->space == AST_SPACE_REG) {
        for (int i = 0; d->names && i < d->names->n; i++) {
            b_declarator *x = d->names->v[i];
            if (x->ndims || x->init) {
                b_error(b, x->loc.line, x->loc.col,
                        "a register cannot have array dimensions or an initializer");
                continue;
            }
            if (x->is_range && x->count == 0)
                continue;                    /* %r<0>: nothing declared */
            ast_stmt *s = new_stmt(b, AST_ST_REG, x->loc);
            s->u.reg.type = d->spec ? d->spec->type : AST_T_NONE;
            s->u.reg.vec = d->spec ? d->spec->vec : 0;
            s->u.reg.name = x->name;
            s->u.reg.count = x->is_range ? x->count : 0;
            if (!x->is_range)
                scope_add(b, x->name);
        }
        return;
    }
    if (!var_space_ok(b, d))
        return;
    for (int i = 0; d->names && i < d->names->n; i++) {
        b_declarator *x = d->names->v[i];
        if (!check_var_declarator(b, x))
            continue;
        ast_stmt *s = new_stmt(b, AST_ST_VAR, x->loc);
        fill_var(&s->u.var, d, x);
    }
}

/* ---- initializers -------------------------------------------------------- */

static ast_init *new_init(ptx_builder *b, ast_init_kind k, ast_loc at)
{
    ast_init *i = arena_alloc(b->a, sizeof *i);
    i->kind = k;
    i->loc = at;
    return i;
}

ast_init *b_init_int(ptx_builder *b, ast_loc at, int64_t v, int neg)
{
    ast_init *i = new_init(b, AST_INIT_INT, at);
    i->ival = neg ? b_neg(v) : v;
    return i;
}

ast_init *b_init_expr(ptx_builder *b, ast_loc at, b_cval x)
{
    return b_init_int(b, at, x.v, 0);
}

ast_init *b_init_bits(ptx_builder *b, ast_loc at, int is_f64, uint64_t bits, int neg)
{
    ast_init *i = new_init(b, is_f64 ? AST_INIT_F64 : AST_INIT_F32, at);
    if (neg)
        bits ^= is_f64 ? (1ull << 63) : (1ull << 31);
    i->bits = bits;
    return i;
}

static uint64_t float_bits(const char *text, int neg)
{
    double d = strtod(text, NULL);
    if (neg)
        d = -d;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

ast_init *b_init_float(ptx_builder *b, ast_loc at, const char *text, int neg)
{
    ast_init *i = new_init(b, AST_INIT_F64, at);
    i->bits = float_bits(text, neg);
    return i;
}

ast_init *b_init_sym(ptx_builder *b, ast_loc at, const char *fn, const char *name,
                     int64_t off)
{
    ast_init *i = new_init(b, AST_INIT_SYM, at);
    if (fn && strcmp(fn, "generic") != 0) {
        char buf[128];
        b_error(b, at.line, at.col, "unknown operator '%s' in initializer (only generic())",
                b_quote(buf, sizeof buf, fn, strlen(fn)));
    }
    i->generic = fn != NULL;
    i->name = name;
    i->ival = off;
    return i;
}

ast_init *b_init_list(ptx_builder *b, ast_loc at, b_list *items)
{
    ast_init *i = new_init(b, AST_INIT_LIST, at);
    if (items) {
        i->n = items->n;
        i->items = (ast_init **)items->v;
    }
    return i;
}

/* ---- functions --------------------------------------------------------------- */

ast_var *b_param(ptx_builder *b, ast_loc at, ast_space sp, b_spec *spec,
                 const char *name, b_dims *dims)
{
    ast_var *v = arena_alloc(b->a, sizeof *v);
    v->loc = at;
    v->space = sp;
    if (sp != AST_SPACE_PARAM && sp != AST_SPACE_REG)
        b_error(b, at.line, at.col, "parameters must be .param or .reg, not .%s",
                ast_space_name(sp));
    if (spec) {
        v->align = spec->align;
        v->type = spec->type;
        v->vec = spec->vec;
        v->ptr = spec->ptr;
        v->ptr_space = spec->ptr_space;
        v->ptr_align = spec->ptr_align;
        if (!spec->bad && !spec->type)
            b_error(b, at.line, at.col, "parameter without a type");
    }
    v->name = name;
    if (dims) {
        v->ndims = dims->n;
        memcpy(v->dims, dims->d, sizeof v->dims);
    }
    return v;
}

b_perf *b_perf_new(ptx_builder *b, ast_loc at, const char *name, b_list *args)
{
    b_perf *p = arena_alloc(b->a, sizeof *p);
    p->name = name;
    p->loc = at;
    p->args = args;
    return p;
}

b_list *b_int_list(ptx_builder *b, b_list *l, int64_t v, ast_loc at)
{
    int64_t *p = arena_alloc(b->a, sizeof *p);
    *p = v;
    return b_list_add(b, l, p, at);
}

static void apply_perf(ptx_builder *b, ast_func *f, b_perf *p)
{
    int n = p->args ? p->args->n : 0;
    int64_t a[3] = {0, 0, 0};
    for (int i = 0; i < n && i < 3; i++)
        a[i] = *(int64_t *)p->args->v[i];
    int want_lo = 1, want_hi = 1;
    int64_t *dst = NULL;
    if (!strcmp(p->name, "maxntid")) {
        want_hi = 3; dst = f->maxntid;
    } else if (!strcmp(p->name, "reqntid")) {
        want_hi = 3; dst = f->reqntid;
    } else if (!strcmp(p->name, "minnctapersm")) {
        dst = &f->minnctapersm;
    } else if (!strcmp(p->name, "maxnreg")) {
        dst = &f->maxnreg;
    } else if (!strcmp(p->name, "noreturn")) {
        want_lo = want_hi = 0;
        f->noreturn = 1;
    } else if (!strcmp(p->name, "maxclusterrank")) {
        dst = &f->maxclusterrank;
    } else if (!strcmp(p->name, "reqnctapercluster")) {
        want_hi = 3; dst = f->reqnctapercluster;
    } else if (!strcmp(p->name, "explicitcluster")) {
        want_lo = want_hi = 0;
        f->explicitcluster = 1;
    } else if (!strcmp(p->name, "blocksareclusters")) {
        want_lo = want_hi = 0;
        f->blocksareclusters = 1;
    } else {
        return;
    }
    if (n < want_lo || n > want_hi) {
        b_error(b, p->loc.line, p->loc.col, "wrong number of values for .%s", p->name);
        return;
    }
    for (int i = 0; dst && i < n; i++)
        dst[i] = a[i];
}

ast_func *b_func_head(ptx_builder *b, ast_loc at, int linkage, int is_entry,
                      b_list *rets, const char *name, b_list *params,
                      b_list *perfs)
{
    ast_func *f = arena_alloc(b->a, sizeof *f);
    f->loc = at;
    f->is_entry = is_entry;
    f->linkage = linkage;
    f->name = name;
    if (is_entry && rets)
        b_error(b, at.line, at.col, "an .entry cannot have return parameters");
    scope_reset(b);
    if (rets) {
        f->nrets = rets->n;
        f->rets = arena_alloc(b->a, (size_t)rets->n * sizeof *f->rets);
        for (int i = 0; i < rets->n; i++)
            f->rets[i] = *(ast_var *)rets->v[i];
    }
    if (params) {
        f->nparams = params->n;
        f->params = arena_alloc(b->a, (size_t)params->n * sizeof *f->params);
        for (int i = 0; i < params->n; i++) {
            f->params[i] = *(ast_var *)params->v[i];
            if (f->params[i].space == AST_SPACE_REG)
                scope_add(b, f->params[i].name);
        }
    }
    for (int i = 0; i < f->nrets; i++)
        if (f->rets[i].space == AST_SPACE_REG)
            scope_add(b, f->rets[i].name);
    for (int i = 0; perfs && i < perfs->n; i++)
        apply_perf(b, f, perfs->v[i]);
    ast_item *it = arena_alloc(b->a, sizeof *it);
    it->kind = AST_ITEM_FUNC;
    it->u.func = f;
    b_list_add(b, &b->items, it, at);
    b->fn = f;
    b->stmts = NULL;
    b->nstmts = b->capstmts = 0;
    memset(&b->src_cur, 0, sizeof b->src_cur);
    return f;
}

void b_body_end(ptx_builder *b, ast_loc at)
{
    if (b->fn) {
        b->fn->has_body = 1;
        b->fn->nstmts = b->nstmts;
        b->fn->stmts = b->stmts;
    }
    b->stmts = NULL;
    b->nstmts = b->capstmts = 0;
    scope_reset(b);
}

void b_func_end(ptx_builder *b, ast_func *f, int has_body)
{
    b->fn = NULL;
}

/* ---- operands -------------------------------------------------------------- */

static ast_operand *new_opd(ptx_builder *b, ast_opd_kind k, ast_loc at)
{
    ast_operand *o = arena_alloc(b->a, sizeof *o);
    o->kind = k;
    o->loc = at;
    return o;
}

ast_operand *b_opd_reg(ptx_builder *b, ast_loc at, const char *name)
{
    ast_operand *o = new_opd(b, AST_OPD_REG, at);
    o->name = name;
    return o;
}

ast_operand *b_opd_ident(ptx_builder *b, ast_loc at, const char *name)
{
    ast_operand *o = new_opd(b, scope_has(b, name) ? AST_OPD_REG : AST_OPD_SYM, at);
    o->name = name;
    return o;
}

ast_operand *b_opd_offset(ptx_builder *b, ast_operand *o, int64_t off, ast_loc at)
{
    if (o->kind != AST_OPD_SYM) {
        b_error(b, at.line, at.col,
                "an offset can only follow a symbol (use [reg+off] for addresses)");
        return o;
    }
    o->ival = off;
    return o;
}

ast_operand *b_opd_not(ptx_builder *b, ast_loc at, ast_operand *o)
{
    o->kind = AST_OPD_REG;                 /* only predicates can be negated */
    o->neg = 1;
    o->loc = at;
    return o;
}

ast_operand *b_opd_int(ptx_builder *b, ast_loc at, int64_t v, int neg)
{
    ast_operand *o = new_opd(b, AST_OPD_INT, at);
    o->ival = neg ? b_neg(v) : v;
    return o;
}

ast_operand *b_opd_bits(ptx_builder *b, ast_loc at, int is_f64, uint64_t bits, int neg)
{
    ast_operand *o = new_opd(b, is_f64 ? AST_OPD_F64 : AST_OPD_F32, at);
    if (neg)
        bits ^= is_f64 ? (1ull << 63) : (1ull << 31);
    o->bits = bits;
    return o;
}

ast_operand *b_opd_float(ptx_builder *b, ast_loc at, const char *text, int neg)
{
    ast_operand *o = new_opd(b, AST_OPD_F64, at);
    o->bits = float_bits(text, neg);
    return o;
}

ast_operand *b_opd_sink(ptx_builder *b, ast_loc at)
{
    return new_opd(b, AST_OPD_SINK, at);
}

ast_operand *b_opd_addr(ptx_builder *b, ast_loc at, ast_operand *base, int64_t off)
{
    ast_operand *o = new_opd(b, AST_OPD_ADDR, at);
    o->ival = off;
    if (base) {
        o->nsub = 1;
        o->sub = arena_alloc(b->a, sizeof *o->sub);
        o->sub[0] = base;
    }
    return o;
}

ast_operand *b_opd_texaddr(ptx_builder *b, ast_loc at, ast_operand *tex,
                           ast_operand *smp, ast_operand *coords)
{
    ast_operand *o = new_opd(b, AST_OPD_ADDR, at);
    o->nsub = smp ? 3 : 2;
    o->sub = arena_alloc(b->a, (size_t)o->nsub * sizeof *o->sub);
    o->sub[0] = tex;
    if (smp)
        o->sub[1] = smp;
    o->sub[o->nsub - 1] = coords;
    return o;
}

ast_operand *b_opd_expr(ptx_builder *b, ast_loc at, b_cval x, int top)
{
    ast_operand *o = new_opd(b, AST_OPD_INT, at);
    o->ival = x.v;
    if (!top || !x.paren)
        return o;
    ast_operand *l = new_opd(b, AST_OPD_LIST, at);   /* b_insn unwraps it */
    l->nsub = 1;
    l->sub = arena_alloc(b->a, sizeof *l->sub);
    l->sub[0] = o;
    return l;
}

/* ---- constant expressions ------------------------------------------------ */

b_cval b_cv_int(int64_t v, int uns)
{
    b_cval r = {0};
    r.v = v;
    r.uns = (unsigned char)(uns != 0);
    return r;
}

b_cval b_cv_paren(b_cval x)
{
    x.lead = 0;
    x.paren = 1;
    return x;
}

static b_cval cv_err(ptx_builder *b, ast_loc at, const char *what)
{
    b_error(b, at.line, at.col, "%s in constant expression", what);
    b_cval r = {0};
    r.bad = 1;
    return r;
}

b_cval b_cv_unary(ptx_builder *b, ast_loc at, int op, b_cval x)
{
    b_cval r = x;
    r.lead = op == '-' || op == '+';
    r.paren = 0;
    if (x.bad)
        return r;
    switch (op) {
    case '-':
        if (!x.uns && x.v == INT64_MIN)
            return cv_err(b, at, "integer overflow");
        r.v = b_neg(x.v);                        /* unsigned: wraps as in C */
        break;
    case '~':
        r.v = (int64_t)~(uint64_t)x.v;
        break;
    case '!':
        r.v = !x.v;
        r.uns = 0;
        break;
    }
    return r;
}

b_cval b_cv_binary(ptx_builder *b, ast_loc at, int op, b_cval x, b_cval y)
{
    b_cval r = {0};
    r.lead = x.lead;
    if (x.bad || y.bad) {
        r.bad = 1;
        return r;
    }
    int uns = x.uns || y.uns;
    uint64_t ux = (uint64_t)x.v, uy = (uint64_t)y.v, ur = 0;
    int64_t sr = 0;
    r.uns = (unsigned char)uns;
    switch (op) {
    case '+':
        if (uns ? __builtin_add_overflow(ux, uy, &ur) : __builtin_add_overflow(x.v, y.v, &sr))
            return cv_err(b, at, "integer overflow");
        break;
    case '-':
        if (uns ? __builtin_sub_overflow(ux, uy, &ur) : __builtin_sub_overflow(x.v, y.v, &sr))
            return cv_err(b, at, "integer overflow");
        break;
    case '*':
        if (uns ? __builtin_mul_overflow(ux, uy, &ur) : __builtin_mul_overflow(x.v, y.v, &sr))
            return cv_err(b, at, "integer overflow");
        break;
    case '/':
    case '%':
        if (uy == 0)
            return cv_err(b, at, op == '/' ? "division by zero" : "remainder by zero");
        if (uns)
            ur = op == '/' ? ux / uy : ux % uy;
        else if (x.v == INT64_MIN && y.v == -1)
            return cv_err(b, at, "integer overflow");
        else
            sr = op == '/' ? x.v / y.v : x.v % y.v;
        break;
    case B_OP_SHL:
    case B_OP_SHR:
        if (y.v < 0 || y.v > 63 || (y.uns && uy > 63)) {
            char m[80];
            snprintf(m, sizeof m, "shift count %s%llu out of range (0 to 63)",
                     !y.uns && y.v < 0 ? "-" : "",
                     !y.uns && y.v < 0 ? (unsigned long long)(0 - uy) : (unsigned long long)uy);
            return cv_err(b, at, m);
        }
        r.uns = x.uns;                           /* the left operand's type */
        if (op == B_OP_SHR) {
            if (x.uns)
                ur = ux >> y.v;
            else
                sr = x.v < 0 ? (int64_t)~(~ux >> y.v) : (int64_t)(ux >> y.v);
        } else {
            ur = ux << y.v;
            sr = (int64_t)ur;
            if (x.uns ? (ur >> y.v) != ux
                      : (sr < 0 ? (int64_t)~(~(uint64_t)sr >> y.v) : (int64_t)((uint64_t)sr >> y.v)) != x.v)
                return cv_err(b, at, "integer overflow");
        }
        break;
    case '<': case '>': case B_OP_LE: case B_OP_GE: case B_OP_EQ: case B_OP_NE: {
        int lt = uns ? ux < uy : x.v < y.v, eq = ux == uy;
        int v = op == '<' ? lt : op == '>' ? !lt && !eq : op == B_OP_LE ? lt || eq
              : op == B_OP_GE ? !lt : op == B_OP_EQ ? eq : !eq;
        r.uns = 0;
        r.v = v;
        return r;
    }
    case '&': ur = ux & uy; sr = (int64_t)ur; break;
    case '|': ur = ux | uy; sr = (int64_t)ur; break;
    case '^': ur = ux ^ uy; sr = (int64_t)ur; break;
    case B_OP_LAND: r.uns = 0; r.v = x.v && y.v; return r;
    case B_OP_LOR: r.uns = 0; r.v = x.v || y.v; return r;
    }
    r.v = r.uns ? (int64_t)ur : sr;
    if (op == B_OP_SHL || op == B_OP_SHR)
        r.v = x.uns ? (int64_t)ur : sr;
    else if (uns)
        r.v = (int64_t)ur;
    return r;
}

b_cval b_cv_cond(b_cval c, b_cval x, b_cval y)
{
    b_cval r = c.v ? x : y;
    r.uns = x.uns || y.uns;
    r.lead = c.lead;
    r.paren = 0;
    r.bad = c.bad || x.bad || y.bad;
    return r;
}

int64_t b_offset(ptx_builder *b, ast_loc at, b_cval x)
{
    if (!x.bad && !x.lead)
        b_error(b, at.line, at.col, "expected ',' (or an offset starting with '+' or '-')");
    return x.v;
}

ast_operand *b_opd_group(ptx_builder *b, ast_loc at, ast_opd_kind k, b_list *items)
{
    ast_operand *o = new_opd(b, k, at);
    if (items) {
        o->nsub = items->n;
        o->sub = (ast_operand **)items->v;
    }
    return o;
}

ast_operand *b_opd_pair(ptx_builder *b, ast_loc at, ast_operand *x, ast_operand *y)
{
    ast_operand *o = new_opd(b, AST_OPD_PAIR, at);
    o->nsub = 2;
    o->sub = arena_alloc(b->a, 2 * sizeof *o->sub);
    o->sub[0] = x;
    o->sub[1] = y;
    return o;
}

/* ---- .section .debug_str ------------------------------------------------- */

void b_debug_end(ptx_builder *b)
{
    if (!b->dbg_open)
        return;
    b->dbg_open = 0;
    size_t n = 0;
    while (n < b->dbg_n && b->dbg_buf[n])
        n++;
    ast_debug_str *d = arena_alloc(b->a, sizeof *d);
    d->label = b->dbg_label;
    d->text = b_str(b, b->dbg_buf ? b->dbg_buf : "", n);
    b_list_add(b, &b->dstrs, d, b->sect_loc);
}

void b_debug_label(ptx_builder *b, const char *name, int line, int col)
{
    b_debug_end(b);
    b->dbg_open = 1;
    b->dbg_n = 0;
    b->dbg_label = name;
    b->sect_loc.line = line;
    b->sect_loc.col = col;
}

void b_debug_byte(ptx_builder *b, int64_t v)
{
    if (!b->dbg_open)
        return;
    if (b->dbg_n == b->dbg_cap) {
        size_t nc = b->dbg_cap ? b->dbg_cap * 2 : 64;
        char *nb = arena_alloc(b->a, nc);
        if (b->dbg_n)
            memcpy(nb, b->dbg_buf, b->dbg_n);
        b->dbg_buf = nb;
        b->dbg_cap = nc;
    }
    b->dbg_buf[b->dbg_n++] = (char)(v & 0xff);
}

/* ---- entry point --------------------------------------------------------- */

ast_module *ast_parse(const char *path, const char *text, size_t len,
                      diag_list *diags)
{
    ptx_builder b;
    memset(&b, 0, sizeof b);
    b.path = path ? path : "<input>";
    b.src = text ? text : "";
    b.len = text ? len : 0;
    b.diags = diags;
    b.line = b.col = 1;
    b.a = arena_new();
    ast_module *m = arena_alloc(b.a, sizeof *m);
    m->arena = b.a;
    m->path = b_str(&b, b.path, strlen(b.path));
    m->address_size = 64;
    b.m = m;

    b_run_parser(&b);

    m->nitems = b.items.n;
    m->items = arena_alloc(b.a, (size_t)(b.items.n + 1) * sizeof *m->items);
    for (int i = 0; i < b.items.n; i++)
        m->items[i] = *(ast_item *)b.items.v[i];
    m->nfiles = b.files.n;
    m->files = arena_alloc(b.a, (size_t)(b.files.n + 1) * sizeof *m->files);
    for (int i = 0; i < b.files.n; i++)
        m->files[i] = *(ast_file *)b.files.v[i];
    /* `function_name sym+off`: the string off bytes into sym's */
    int nds = b.dstrs.n;
    for (int i = 0; i < b.fnoffs.n; i++) {
        const b_fnoff *e = b.fnoffs.v[i];
        for (int j = 0; j < nds; j++) {
            const ast_debug_str *d = b.dstrs.v[j];
            if (strcmp(d->label, e->base) != 0)
                continue;
            if ((uint64_t)e->off <= strlen(d->text)) {
                ast_debug_str *n = arena_alloc(b.a, sizeof *n);
                n->label = e->label;
                n->text = d->text + e->off;
                b_list_add(&b, &b.dstrs, n, (ast_loc){0, 0});
            }
            break;
        }
    }
    m->naliases = b.aliases.n;
    m->aliases = arena_alloc(b.a, (size_t)(b.aliases.n + 1) * sizeof *m->aliases);
    for (int i = 0; i < b.aliases.n; i++)
        m->aliases[i] = *(ast_alias *)b.aliases.v[i];
    m->ndebug_strs = b.dstrs.n;
    m->debug_strs = arena_alloc(b.a, (size_t)(b.dstrs.n + 1) * sizeof *m->debug_strs);
    for (int i = 0; i < b.dstrs.n; i++)
        m->debug_strs[i] = *(ast_debug_str *)b.dstrs.v[i];

    if (b.nerrors) {
        ast_module_free(m);
        return NULL;
    }
    return m;
}
