/* diag_stub.c — minimal diag_list for the runtime tests, used only while
 * parser/diag.c does not exist yet (run.sh picks the real one when it does). */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX 100
#define MSG_MAX 1024

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
    memset(d, 0, sizeof *d);
}

int diag_add(diag_list *d, diag_severity sev, const char *file, int line,
             int col, const char *fmt, ...)
{
    int max = d->max ? d->max : DEFAULT_MAX;
    if (d->n >= max)
        return -1;
    if (d->n == d->cap) {
        int ncap = d->cap ? d->cap * 2 : 8;
        diag *nv = realloc(d->v, (size_t)ncap * sizeof *nv);
        if (!nv)
            return -1;
        d->v = nv;
        d->cap = ncap;
    }
    char buf[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    d->v[d->n] = (diag){ sev, file ? strdup(file) : NULL, line, col,
                         strdup(buf) };
    d->n++;
    if (sev == DIAG_ERROR)
        d->nerrors++;
    return 0;
}

void diag_render(const diag_list *d, const char *src, size_t len, FILE *out)
{
    for (int i = 0; i < d->n; i++)
        fprintf(out, "%s:%d: %s\n", d->v[i].file ? d->v[i].file : "",
                d->v[i].line, d->v[i].msg);
}
