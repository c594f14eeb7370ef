/* profile_json.c — reading back a JSON profile (prof_write_json's shape) and
 * the per-line diff of two of them.
 *
 * The reader is a small JSON parser into a tree (objects keep their keys in
 * order); it accepts any JSON and reports the first error with its line. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"

/* ---- a JSON tree -------------------------------------------------------------------------- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype t;
    double num;
    char *str;                   /* J_STR */
    struct jval *items;          /* J_ARR / J_OBJ values */
    char **keys;                 /* J_OBJ */
    int n;
} jval;

typedef struct jparser {
    const char *s, *end;
    const char *err;
    int depth;
} jparser;

#define JSON_MAX_DEPTH 64

static void jfree(jval *v)
{
    for (int i = 0; i < v->n; i++) {
        jfree(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

static void skip_ws(jparser *p)
{
    while (p->s < p->end && isspace((unsigned char)*p->s)) p->s++;
}

static int parse_value(jparser *p, jval *v);

static int parse_string(jparser *p, char **out)
{
    if (p->s >= p->end || *p->s != '"') { p->err = "expected a string"; return -1; }
    p->s++;
    size_t cap = 16, n = 0;
    char *b = malloc(cap);
    if (!b) { p->err = "out of memory"; return -1; }
    while (p->s < p->end && *p->s != '"') {
        unsigned c = (unsigned char)*p->s++;
        if (c == '\\') {
            if (p->s >= p->end) break;
            char e = *p->s++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                if (p->end - p->s < 4) { free(b); p->err = "short \\u escape"; return -1; }
                char hex[5] = { p->s[0], p->s[1], p->s[2], p->s[3], 0 };
                c = (unsigned)strtoul(hex, NULL, 16);
                p->s += 4;
                if (c > 0x7f) c = '?';       /* the writer escapes ASCII only */
                break;
            }
            default: c = (unsigned char)e;
            }
        }
        if (n + 2 > cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); p->err = "out of memory"; return -1; }
            b = nb;
        }
        b[n++] = (char)c;
    }
    if (p->s >= p->end) { free(b); p->err = "unterminated string"; return -1; }
    p->s++;
    b[n] = 0;
    *out = b;
    return 0;
}

/* Items of an array or members of an object, up to `close`. */
static int parse_items(jparser *p, jval *v, char close)
{
    int cap = 0;
    p->s++;
    skip_ws(p);
    if (p->s < p->end && *p->s == close) { p->s++; return 0; }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            jval *ni = realloc(v->items, (size_t)cap * sizeof *ni);
            if (!ni) { p->err = "out of memory"; return -1; }
            v->items = ni;
            if (close == '}') {
                char **nk = realloc(v->keys, (size_t)cap * sizeof *nk);
                if (!nk) { p->err = "out of memory"; return -1; }
                v->keys = nk;
            }
        }
        memset(&v->items[v->n], 0, sizeof v->items[0]);
        if (close == '}') {
            skip_ws(p);
            v->keys[v->n] = NULL;
            if (parse_string(p, &v->keys[v->n])) { v->n++; return -1; }
            skip_ws(p);
            if (p->s >= p->end || *p->s != ':') { v->n++; p->err = "expected ':'"; return -1; }
            p->s++;
        }
        v->n++;
        if (parse_value(p, &v->items[v->n - 1])) return -1;
        skip_ws(p);
        if (p->s < p->end && *p->s == ',') { p->s++; continue; }
        if (p->s < p->end && *p->s == close) { p->s++; return 0; }
        p->err = close == '}' ? "expected ',' or '}'" : "expected ',' or ']'";
        return -1;
    }
}

static int parse_value(jparser *p, jval *v)
{
    skip_ws(p);
    if (p->s >= p->end) { p->err = "unexpected end"; return -1; }
    if (++p->depth > JSON_MAX_DEPTH) { p->err = "nested too deeply"; return -1; }
    int r = 0;
    char c = *p->s;
    if (c == '{') { v->t = J_OBJ; r = parse_items(p, v, '}'); }
    else if (c == '[') { v->t = J_ARR; r = parse_items(p, v, ']'); }
    else if (c == '"') { v->t = J_STR; r = parse_string(p, &v->str); }
    else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) { v->t = J_BOOL; v->num = c == 't'; p->s += c == 't' ? 4 : 5; }
    else if (!strncmp(p->s, "null", 4)) { v->t = J_NULL; p->s += 4; }
    else if (c == '-' || isdigit((unsigned char)c)) {
        char *e;
        errno = 0;
        v->t = J_NUM;
        v->num = strtod(p->s, &e);
        if (e == p->s || e > p->end) { p->err = "bad number"; r = -1; }
        else p->s = e;
    } else { p->err = "unexpected character"; r = -1; }
    p->depth--;
    return r;
}

static const jval *jget(const jval *o, const char *key)
{
    if (!o || o->t != J_OBJ) return NULL;
    for (int i = 0; i < o->n; i++) if (!strcmp(o->keys[i], key)) return &o->items[i];
    return NULL;
}

/* ---- a profile from the tree -------------------------------------------------------------- */

static void get_counters(const jval *o, prof_counters *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < o->n; i++) {
        int k = prof_counter_index(o->keys[i]);
        if (k < 0 || o->items[i].t != J_NUM || o->items[i].num < 0) continue;
        uint64_t v = (uint64_t)o->items[i].num;
        switch (k) {
#define X(n) case PROF_C_##n: c->n = v; break;
            PROF_COUNTERS(X)
#undef X
        }
    }
}

static char *jstrdup(const jval *v)
{
    return v && v->t == J_STR ? strdup(v->str) : NULL;
}

static int from_tree(const jval *root, prof_report *r, char *msg, size_t len)
{
    const jval *lines = jget(root, "lines"), *totals = jget(root, "totals"), *ptx = jget(root, "ptx_lines");
    if (root->t != J_OBJ || !lines || lines->t != J_ARR || !totals || totals->t != J_OBJ) {
        snprintf(msg, len, "not a ptxemu profile: it needs \"totals\" and \"lines\" (write one with --format json)");
        return -1;
    }
    r->kernel = jstrdup(jget(root, "kernel"));
    r->ptx_path = jstrdup(jget(root, "ptx"));
    if (!r->kernel) r->kernel = strdup("?");
    if (!r->ptx_path) r->ptx_path = strdup("?");
    get_counters(totals, &r->totals);
    r->lines = calloc((size_t)(lines->n ? lines->n : 1), sizeof *r->lines);
    if (!r->lines || !r->kernel || !r->ptx_path) { snprintf(msg, len, "out of memory"); return -1; }
    for (int i = 0; i < lines->n; i++) {
        const jval *o = &lines->items[i], *file = jget(o, "file"), *line = jget(o, "line");
        if (o->t != J_OBJ || !file || file->t != J_STR || !line || line->t != J_NUM) {
            snprintf(msg, len, "lines[%d] needs \"file\" and \"line\"", i);
            return -1;
        }
        prof_line *L = &r->lines[r->nlines++];
        L->file = strdup(file->str);
        L->line = (int)line->num;
        L->source = jstrdup(jget(o, "source"));
        get_counters(o, &L->c);
    }
    if (ptx && ptx->t == J_ARR) {
        r->ptx_lines = calloc((size_t)(ptx->n ? ptx->n : 1), sizeof *r->ptx_lines);
        if (!r->ptx_lines) { snprintf(msg, len, "out of memory"); return -1; }
        for (int i = 0; i < ptx->n; i++) {
            const jval *o = &ptx->items[i], *line = jget(o, "line");
            if (o->t != J_OBJ || !line || line->t != J_NUM) continue;
            prof_ptx_line *P = &r->ptx_lines[r->nptx_lines++];
            P->line = (int)line->num;
            P->text = jstrdup(jget(o, "text"));
            P->cuda = -1;
            get_counters(o, &P->c);
        }
    }
    return 0;
}

int prof_read_json(const char *path, prof_report *r, char *msg, size_t len)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(msg, len, "%s: %s", path, strerror(errno)); return -1; }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) { char *nb = realloc(buf, cap *= 2); if (!nb) { free(buf); buf = NULL; } else buf = nb; }
    }
    fclose(f);
    if (!buf) { snprintf(msg, len, "%s: out of memory", path); return -1; }
    jparser p = { buf, buf + n, NULL, 0 };
    jval root;
    memset(&root, 0, sizeof root);
    int rc = parse_value(&p, &root);
    if (!rc) { skip_ws(&p); if (p.s != p.end) { p.err = "text after the JSON value"; rc = -1; } }
    if (rc) {
        int line = 1;
        for (const char *q = buf; q < p.s && q < p.end; q++) line += *q == '\n';
        snprintf(msg, len, "%s:%d: not valid JSON: %s", path, line, p.err ? p.err : "?");
    } else if (from_tree(&root, r, msg, len)) {
        char m2[512];
        snprintf(m2, sizeof m2, "%s: %s", path, msg);
        snprintf(msg, len, "%s", m2);
        rc = -1;
    }
    jfree(&root);
    free(buf);
    if (rc) prof_report_free(r);
    return rc;
}

/* ---- the diff ----------------------------------------------------------------------------- */

static const char *base_name_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Lines of one file in each report, paired by the longest common
 * subsequence of their source texts (or of their numbers when a text is
 * missing).  pair_a[i] = index in b's list or -1. */
static int same_line(const prof_line *x, const prof_line *y)
{
    if (x->source && y->source) return !strcmp(x->source, y->source);
    return x->line == y->line;
}

static void pair_lines(const prof_line *const *la, int na, const prof_line *const *lb, int nb, int *pair_a)
{
    int *t = calloc((size_t)(na + 1) * (size_t)(nb + 1), sizeof *t);
    for (int i = 0; i < na; i++) pair_a[i] = -1;
    if (!t) {                                             /* no memory for the table: pair by number */
        for (int i = 0; i < na; i++)
            for (int j = 0; j < nb; j++) if (la[i]->line == lb[j]->line) pair_a[i] = j;
        return;
    }
#define T(i, j) t[(size_t)(i) * (size_t)(nb + 1) + (size_t)(j)]
    for (int i = na - 1; i >= 0; i--)
        for (int j = nb - 1; j >= 0; j--)
            T(i, j) = same_line(la[i], lb[j]) ? T(i + 1, j + 1) + 1 : (T(i + 1, j) > T(i, j + 1) ? T(i + 1, j) : T(i, j + 1));
    for (int i = 0, j = 0; i < na && j < nb;) {
        if (same_line(la[i], lb[j])) { pair_a[i] = j; i++; j++; }
        else if (T(i + 1, j) >= T(i, j + 1)) i++;
        else j++;
    }
#undef T
    free(t);
}

static void diff_row(FILE *f, const prof_line *x, const prof_line *y)
{
    const prof_line *s = y ? y : x;
    fprintf(f, "%s:", base_name_of(s->file));
    if (x && y && x->line != y->line) fprintf(f, "%d->%d", x->line, y->line);
    else fprintf(f, "%d", s->line);
    fprintf(f, "%s%s\n", s->source ? "  " : "", s->source ? s->source : "");
    for (int i = 0; i < PROF_NCOUNTERS; i++) {
        uint64_t a = x ? prof_counter(&x->c, i) : 0, b = y ? prof_counter(&y->c, i) : 0;
        if (a == b) continue;
        long long d = (long long)b - (long long)a;
        fprintf(f, "    %-24s %10llu -> %-10llu (%+lld", prof_counter_name(i), (unsigned long long)a, (unsigned long long)b, d);
        if (a) fprintf(f, ", %+.0f%%", 100.0 * (double)d / (double)a);
        fputs(")\n", f);
    }
}

static int changed(const prof_line *x, const prof_line *y)
{
    for (int i = 0; i < PROF_NCOUNTERS; i++)
        if ((x ? prof_counter(&x->c, i) : 0) != (y ? prof_counter(&y->c, i) : 0)) return 1;
    return 0;
}

/* The lines of r in file `file`, in line order (r's lines are sorted by file, then line). */
static int lines_of(const prof_report *r, const char *file, const prof_line **out)
{
    int n = 0;
    for (int i = 0; i < r->nlines; i++) if (!strcmp(r->lines[i].file, file)) out[n++] = &r->lines[i];
    return n;
}

/* Diffs one file; returns the lines that changed. */
static int diff_file(const prof_report *a, const prof_report *b, const char *file, FILE *f)
{
    const prof_line **la = malloc((size_t)(a->nlines + 1) * sizeof *la), **lb = malloc((size_t)(b->nlines + 1) * sizeof *lb);
    int *pa = malloc((size_t)(a->nlines + 1) * sizeof *pa);
    int nchanged = 0;
    if (la && lb && pa) {
        int na = lines_of(a, file, la), nb = lines_of(b, file, lb);
        pair_lines(la, na, lb, nb, pa);
        /* in order; the pairs are monotonic: a line of a only (removed) before one of b only (added) */
        for (int i = 0, j = 0; i < na || j < nb;) {
            const prof_line *x = NULL, *y = NULL;
            if (i < na && pa[i] < 0) x = la[i++];
            else if (j < (i < na ? pa[i] : nb)) y = lb[j++];
            else { x = la[i++]; y = lb[j++]; }
            if (changed(x, y)) { diff_row(f, x, y); nchanged++; }
        }
    }
    free(la); free(lb); free(pa);
    return nchanged;
}

int prof_write_diff(const prof_report *a, const prof_report *b, const char *name_a, const char *name_b, FILE *f)
{
    fprintf(f, "profile diff: %s (kernel %s) -> %s (kernel %s)\n", name_a, a->kernel, name_b, b->kernel);
    prof_line ta = { .file = "", .c = a->totals }, tb = { .file = "", .c = b->totals };
    fputs("totals\n", f);
    if (changed(&ta, &tb)) {
        for (int i = 0; i < PROF_NCOUNTERS; i++) {
            uint64_t x = prof_counter(&a->totals, i), y = prof_counter(&b->totals, i);
            if (x == y) continue;
            long long d = (long long)y - (long long)x;
            fprintf(f, "    %-24s %10llu -> %-10llu (%+lld", prof_counter_name(i), (unsigned long long)x, (unsigned long long)y, d);
            if (x) fprintf(f, ", %+.0f%%", 100.0 * (double)d / (double)x);
            fputs(")\n", f);
        }
    } else fputs("    (unchanged)\n", f);
    int n = 0;
    for (int i = 0; i < a->nlines; i++) {
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) seen = !strcmp(a->lines[k].file, a->lines[i].file);
        if (!seen) n += diff_file(a, b, a->lines[i].file, f);
    }
    for (int i = 0; i < b->nlines; i++) {
        int seen = 0;
        for (int k = 0; k < a->nlines && !seen; k++) seen = !strcmp(a->lines[k].file, b->lines[i].file);
        for (int k = 0; k < i && !seen; k++) seen = !strcmp(b->lines[k].file, b->lines[i].file);
        if (!seen) n += diff_file(a, b, b->lines[i].file, f);
    }
    fprintf(f, "%d line%s changed\n", n, n == 1 ? "" : "s");
    return n;
}
