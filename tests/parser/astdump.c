/* astdump — parse a .ptx file and print its AST, one line per statement.
 *
 *   astdump [-q] file.ptx
 *   astdump -P file.ptx     parse every byte prefix (robustness; no output)
 *   astdump -L file.ptx     parse every line prefix (robustness; no output)
 *
 * Exit status: 0 parsed (AST on stdout unless -q), 3 parse errors (rendered
 * on stderr with diag_render), 2 usage or I/O error.
 *
 * Operand notation: r:%r1 (register; r:!%p negated), i:-4 (integer),
 * f32:3f800000 / f64:3ff0000000000000 (bit patterns), s:sym or s:sym+4
 * (symbol), [BASE+off] / [abs N] (address), {a,b} (vector), (a,b) (call
 * list), a|b (pair), _ (sink).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "diag.h"

static void put_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void put_opd(const ast_operand *o)
{
    switch (o->kind) {
    case AST_OPD_REG:
        printf("r:%s%s", o->neg ? "!" : "", o->name);
        break;
    case AST_OPD_INT:
        printf("i:%" PRId64, o->ival);
        break;
    case AST_OPD_F32:
        printf("f32:%08" PRIx64, o->bits & 0xffffffffu);
        break;
    case AST_OPD_F64:
        printf("f64:%016" PRIx64, o->bits);
        break;
    case AST_OPD_SYM:
        printf("s:%s", o->name);
        if (o->ival)
            printf("%+" PRId64, o->ival);
        break;
    case AST_OPD_ADDR:
        putchar('[');
        if (o->nsub > 1) {                       /* [tex, smp, coords] */
            for (int i = 0; i < o->nsub; i++) {
                if (i)
                    printf(", ");
                put_opd(o->sub[i]);
            }
        } else if (o->nsub) {
            put_opd(o->sub[0]);
            printf("%+" PRId64, o->ival);
        } else {
            printf("abs %" PRId64, o->ival);
        }
        putchar(']');
        break;
    case AST_OPD_VEC:
    case AST_OPD_LIST:
        putchar(o->kind == AST_OPD_VEC ? '{' : '(');
        for (int i = 0; i < o->nsub; i++) {
            if (i)
                putchar(',');
            put_opd(o->sub[i]);
        }
        putchar(o->kind == AST_OPD_VEC ? '}' : ')');
        break;
    case AST_OPD_PAIR:
        put_opd(o->sub[0]);
        putchar('|');
        put_opd(o->sub[1]);
        break;
    case AST_OPD_SINK:
        putchar('_');
        break;
    }
}

static void put_init(const ast_init *in)
{
    switch (in->kind) {
    case AST_INIT_INT:
        printf("%" PRId64, in->ival);
        break;
    case AST_INIT_F32:
        printf("f32:%08" PRIx64, in->bits & 0xffffffffu);
        break;
    case AST_INIT_F64:
        printf("f64:%016" PRIx64, in->bits);
        break;
    case AST_INIT_SYM:
        printf(in->generic ? "generic(%s)" : "%s", in->name);
        if (in->ival)
            printf("%+" PRId64, in->ival);
        break;
    case AST_INIT_LIST:
        putchar('{');
        for (int i = 0; i < in->n; i++) {
            if (i)
                putchar(',');
            put_init(in->items[i]);
        }
        putchar('}');
        break;
    }
}

static void put_linkage(int l)
{
    if (l & AST_VISIBLE) printf(".visible ");
    if (l & AST_EXTERN) printf(".extern ");
    if (l & AST_WEAK) printf(".weak ");
    if (l & AST_COMMON) printf(".common ");
}

static void put_var(const ast_var *v)
{
    put_linkage(v->linkage);
    printf(".%s", ast_space_name(v->space));
    if (v->align)
        printf(" .align %d", v->align);
    if (v->vec)
        printf(" .v%d", v->vec);
    printf(" .%s", ast_type_name(v->type));
    if (v->ptr) {
        printf(" .ptr");
        if (v->ptr_space)
            printf(" .%s", ast_space_name(v->ptr_space));
        if (v->ptr_align)
            printf(" .align %d", v->ptr_align);
    }
    printf(" %s", v->name);
    for (int i = 0; i < v->ndims; i++) {
        if (v->dims[i] < 0)
            printf("[]");
        else
            printf("[%" PRId64 "]", v->dims[i]);
    }
    if (v->init) {
        printf(" = ");
        put_init(v->init);
    }
}

static void put_stmt(const ast_stmt *s)
{
    printf("  %d:%d", s->loc.line, s->loc.col);
    if (s->src.file) {
        printf(" @%d:%d:%d", s->src.file, s->src.line, s->src.col);
        if (s->src.function_name)
            printf("(%s", s->src.function_name);
        if (s->src.function_off)
            printf(" = %s%+" PRId64, s->src.function_base, s->src.function_off);
        if (s->src.in_file)
            printf(" inl %d:%d:%d", s->src.in_file, s->src.in_line, s->src.in_col);
        if (s->src.function_name)
            putchar(')');
    }
    printf(" | ");
    switch (s->kind) {
    case AST_ST_INSN: {
        const ast_insn *in = &s->u.insn;
        if (in->guard)
            printf("@%s%s ", in->guard_neg ? "!" : "", in->guard);
        printf("%s <%s", in->text, in->op);
        for (int i = 0; i < in->nmods; i++)
            printf(" .%s", in->mods[i]);
        putchar('>');
        for (int i = 0; i < in->nopds; i++) {
            printf(i ? ", " : " ");
            put_opd(in->opds[i]);
        }
        break;
    }
    case AST_ST_LABEL:
        printf("label %s", s->u.label);
        if (s->proto) {
            const ast_func *p = s->proto;
            printf(" callprototype (");
            for (int i = 0; i < p->nrets; i++) {
                printf(i ? ", " : "");
                put_var(&p->rets[i]);
            }
            printf(") (");
            for (int i = 0; i < p->nparams; i++) {
                printf(i ? ", " : "");
                put_var(&p->params[i]);
            }
            printf(")%s", p->noreturn ? " noreturn" : "");
        }
        if (s->ncalltargets) {
            printf(" calltargets");
            for (int i = 0; i < s->ncalltargets; i++)
                printf("%s %s", i ? "," : "", s->calltargets[i]);
        }
        break;
    case AST_ST_REG:
        printf("reg");
        if (s->u.reg.vec)
            printf(" .v%d", s->u.reg.vec);
        printf(" .%s %s", ast_type_name(s->u.reg.type), s->u.reg.name);
        if (s->u.reg.count)
            printf("<%" PRId64 ">", s->u.reg.count);
        break;
    case AST_ST_VAR:
        printf("var ");
        put_var(&s->u.var);
        break;
    case AST_ST_OPEN:
        printf("{");
        break;
    case AST_ST_CLOSE:
        printf("}");
        break;
    case AST_ST_PRAGMA:
        printf("pragma ");
        put_str(s->u.text);
        break;
    case AST_ST_BRANCHTARGETS:
        printf("branchtargets %s:", s->u.targets.label);
        for (int i = 0; i < s->u.targets.n; i++)
            printf("%s %s", i ? "," : "", s->u.targets.names[i]);
        break;
    }
    putchar('\n');
}

static void put_params(const char *what, int n, const ast_var *v)
{
    printf("  %s", what);
    for (int i = 0; i < n; i++) {
        printf(i ? ", " : " ");
        put_var(&v[i]);
    }
    putchar('\n');
}

static void dump(const ast_module *m)
{
    printf("module version %d.%d target %s%s address_size %d\n", m->version_major,
           m->version_minor, m->target ? m->target : "-",
           m->target_debug ? " debug" : "", m->address_size);
    for (int i = 0; i < m->nitems; i++) {
        const ast_item *it = &m->items[i];
        if (it->kind == AST_ITEM_VAR) {
            printf("%d:%d var ", it->u.var->loc.line, it->u.var->loc.col);
            put_var(it->u.var);
            putchar('\n');
            continue;
        }
        const ast_func *f = it->u.func;
        printf("%d:%d ", f->loc.line, f->loc.col);
        put_linkage(f->linkage);
        printf("%s %s%s", f->is_entry ? ".entry" : ".func", f->name,
               f->has_body ? "" : " (prototype)");
        if (f->maxntid[0])
            printf(" maxntid %" PRId64 ",%" PRId64 ",%" PRId64, f->maxntid[0],
                   f->maxntid[1], f->maxntid[2]);
        if (f->reqntid[0])
            printf(" reqntid %" PRId64 ",%" PRId64 ",%" PRId64, f->reqntid[0],
                   f->reqntid[1], f->reqntid[2]);
        if (f->minnctapersm)
            printf(" minnctapersm %" PRId64, f->minnctapersm);
        if (f->maxnreg)
            printf(" maxnreg %" PRId64, f->maxnreg);
        if (f->noreturn)
            printf(" noreturn");
        if (f->maxclusterrank)
            printf(" maxclusterrank %" PRId64, f->maxclusterrank);
        if (f->reqnctapercluster[0])
            printf(" reqnctapercluster %" PRId64 ",%" PRId64 ",%" PRId64, f->reqnctapercluster[0],
                   f->reqnctapercluster[1], f->reqnctapercluster[2]);
        if (f->explicitcluster)
            printf(" explicitcluster");
        if (f->blocksareclusters)
            printf(" blocksareclusters");
        putchar('\n');
        if (f->nrets)
            put_params("rets", f->nrets, f->rets);
        if (f->nparams)
            put_params("params", f->nparams, f->params);
        for (int k = 0; k < f->nstmts; k++)
            put_stmt(&f->stmts[k]);
    }
    for (int i = 0; i < m->naliases; i++)
        printf("%d:%d alias %s = %s\n", m->aliases[i].loc.line, m->aliases[i].loc.col,
               m->aliases[i].name, m->aliases[i].target);
    for (int i = 0; i < m->nfiles; i++) {
        printf("file %d ", m->files[i].index);
        put_str(m->files[i].path);
        putchar('\n');
    }
    for (int i = 0; i < m->ndebug_strs; i++) {
        printf("debug_str %s ", m->debug_strs[i].label);
        put_str(m->debug_strs[i].text);
        putchar('\n');
    }
}

/* parses text[0..n) from an exactly sized copy, so overreads are caught */
static int parse_prefix(const char *path, const char *text, size_t n)
{
    char *copy = malloc(n ? n : 1);
    if (n)
        memcpy(copy, text, n);
    diag_list d;
    diag_init(&d);
    ast_module *m = ast_parse(path, copy, n, &d);
    int ok = m != NULL;
    if (!m) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            diag_render(&d, copy, n, null);
            fclose(null);
        }
    }
    ast_module_free(m);
    diag_list_free(&d);
    free(copy);
    return ok;
}

int main(int argc, char **argv)
{
    int quiet = 0, prefixes = 0, ai = 1;
    if (ai < argc && strcmp(argv[ai], "-q") == 0) {
        quiet = 1;
        ai++;
    } else if (ai < argc && (strcmp(argv[ai], "-P") == 0 || strcmp(argv[ai], "-L") == 0)) {
        prefixes = argv[ai][1];
        ai++;
    }
    if (ai + 1 != argc) {
        fprintf(stderr, "usage: astdump [-q|-P|-L] file.ptx\n");
        return 2;
    }
    FILE *fp = fopen(argv[ai], "rb");
    if (!fp) {
        perror(argv[ai]);
        return 2;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        if (!buf) {
            fprintf(stderr, "out of memory\n");
            return 2;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        if (n == 0)
            break;
        len += n;
    }
    fclose(fp);

    if (prefixes) {
        for (size_t k = 0; k <= len; k++)
            if (prefixes == 'P' || k == len || buf[k] == '\n')
                parse_prefix(argv[ai], buf, k);
        free(buf);
        return 0;
    }
    char *exact = malloc(len ? len : 1);
    if (len)
        memcpy(exact, buf, len);
    free(buf);
    buf = exact;

    diag_list d;
    diag_init(&d);
    ast_module *m = ast_parse(argv[ai], buf, len, &d);
    int rc = 0;
    if (!m) {
        diag_render(&d, buf, len, stderr);
        rc = 3;
    } else if (!quiet) {
        dump(m);
    }
    ast_module_free(m);
    diag_list_free(&d);
    free(buf);
    return rc;
}
