/* diag.c — diagnostics list and gcc-style rendering (see diag.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void diag_init(diag_list *d)
{
    memset(d, 0, sizeof *d);
}

void diag_list_free(diag_list *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->v[i].file);
        free(d->v[i].msg);
    }
    free(d->v);
    d->v = NULL;
    d->n = d->cap = 0;
    d->nerrors = 0;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

int diag_add(diag_list *d, diag_severity sev, const char *file, int line,
             int col, const char *fmt, ...)
{
    int max = d->max > 0 ? d->max : 100;
    if (sev == DIAG_ERROR)
        d->nerrors++;
    if (d->n >= max)
        return -1;
    if (d->n == d->cap) {
        int nc = d->cap ? d->cap * 2 : 16;
        diag *nv = realloc(d->v, (size_t)nc * sizeof *nv);
        if (!nv)
            return -1;
        d->v = nv;
        d->cap = nc;
    }
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    char *msg = malloc((size_t)len + 1);
    if (!msg)
        return -1;
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)len + 1, fmt, ap);
    va_end(ap);
    diag *g = &d->v[d->n++];
    g->sev = sev;
    g->file = file ? xstrdup(file) : NULL;
    g->line = line;
    g->col = col;
    g->msg = msg;
    return 0;
}

/* The bytes of line `line` (1-based) of src: start and length. */
static int find_line(const char *src, size_t len, int line, size_t *start,
                     size_t *n)
{
    size_t p = 0;
    int l = 1;
    while (l < line) {
        const char *nl = memchr(src + p, '\n', len - p);
        if (!nl)
            return 0;
        p = (size_t)(nl - src) + 1;
        l++;
    }
    const char *nl = memchr(src + p, '\n', len - p);
    size_t e = nl ? (size_t)(nl - src) : len;
    if (e > p && src[e - 1] == '\r')
        e--;
    *start = p;
    *n = e - p;
    return 1;
}

#define RENDER_WIDTH 200

void diag_render(const diag_list *d, const char *src, size_t len, FILE *out)
{
    static const char *const sevname[] = {"error", "warning", "note"};
    for (int i = 0; i < d->n; i++) {
        const diag *g = &d->v[i];
        const char *sv = (unsigned)g->sev < 3 ? sevname[g->sev] : "error";
        if (g->file && g->line > 0)
            fprintf(out, "%s:%d:%d: %s: %s\n", g->file, g->line,
                    g->col > 0 ? g->col : 1, sv, g->msg);
        else if (g->file)
            fprintf(out, "%s: %s: %s\n", g->file, sv, g->msg);
        else
            fprintf(out, "%s: %s\n", sv, g->msg);
        size_t ls, ln;
        if (!src || g->line <= 0 || !find_line(src, len, g->line, &ls, &ln))
            continue;
        size_t col = g->col > 0 ? (size_t)g->col - 1 : 0;
        if (col > ln)
            col = ln;
        /* window of at most RENDER_WIDTH bytes around the caret */
        size_t from = 0, to = ln;
        if (ln > RENDER_WIDTH) {
            from = col > RENDER_WIDTH / 2 ? col - RENDER_WIDTH / 2 : 0;
            to = from + RENDER_WIDTH;
            if (to > ln) {
                to = ln;
                from = ln - RENDER_WIDTH;
            }
        }
        const char *pre = from > 0 ? "..." : "";
        fputs("    ", out);
        fputs(pre, out);
        for (size_t k = from; k < to; k++) {
            unsigned char c = (unsigned char)src[ls + k];
            fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', out);
        }
        if (to < ln)
            fputs("...", out);
        fputc('\n', out);
        fputs("    ", out);
        fputs(from > 0 ? "   " : "", out);
        for (size_t k = from; k < col; k++)
            fputc(src[ls + k] == '\t' ? '\t' : ' ', out);
        fputs("^\n", out);
    }
}
