/* casefile.c — parser for conformance case files, and the result
 * comparisons the test runner applies. */
#include "casefile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CASE_FILE_MAX_BYTES ((size_t)16 << 20)   /* the case.txt itself */
#define MAX_TOKENS 16        /* more than any directive takes */
#define READ_CHUNK 65536
#define BYTE_MAX_VALUE 255u

typedef struct parser {
    const char *path;        /* the case file, for messages */
    char *dir;               /* its directory, for relative paths */
    rt_case *c;
    diag_list *d;
    int line;
    int first_line[8];       /* line of the first once-only directive */
    /* buffer references resolved after the whole file is read */
    struct pending { char *name; int line; int index; bool expect; } *refs;
    int nrefs, refcap;
    int cap_buffers, cap_params, cap_expects, cap_stats;
} parser;

enum once { ONCE_PTX, ONCE_KERNEL, ONCE_GRID, ONCE_BLOCK, ONCE_SHARED,
            ONCE_STDOUT, ONCE_STATUS, ONCE_CHECK };

static void err(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void err(parser *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_add(p->d, DIAG_ERROR, p->path, p->line, 0, "%s", msg);
}

/* Grows *v (elements of `size`) to hold at least n+1; 0 or -1 (no memory). */
static int grow(void **v, int *cap, int n, size_t size)
{
    if (n < *cap)
        return 0;
    int ncap = *cap ? *cap * 2 : 8;
    void *nv = realloc(*v, (size_t)ncap * size);
    if (!nv)
        return -1;
    *v = nv;
    *cap = ncap;
    return 0;
}

/* Reads a whole file of at most `max` bytes.  0, or -1 with a message. */
static int read_whole(const char *path, size_t max, uint8_t **data,
                      size_t *size, char *emsg, size_t emlen)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(emsg, emlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + READ_CHUNK > cap) {
            size_t ncap = cap ? cap * 2 : READ_CHUNK;
            if (ncap > max + READ_CHUNK)
                ncap = max + READ_CHUNK;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(emsg, emlen, "out of memory reading '%s'", path);
                goto fail;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            snprintf(emsg, emlen, "'%s' is larger than %zu bytes", path, max);
            goto fail;
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(emsg, emlen, "cannot read '%s': %s", path, strerror(errno));
        goto fail;
    }
    fclose(f);
    if (len == 0) {
        free(buf);
        buf = NULL;
    }
    *data = buf;
    *size = len;
    return 0;
fail:
    free(buf);
    fclose(f);
    return -1;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r)
        memcpy(r, s, n);
    return r;
}

static char *resolve(const parser *p, const char *rel)
{
    if (rel[0] == '/')
        return xstrdup(rel);
    size_t n = strlen(p->dir) + 1 + strlen(rel) + 1;
    char *r = malloc(n);
    if (r)
        snprintf(r, n, "%s/%s", p->dir, rel);
    return r;
}

/* Unsigned decimal or 0x-hex, no sign.  0, or -1 (malformed / too big). */
static int parse_u64(const char *s, uint64_t *v)
{
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
        return -1;
    char *end;
    errno = 0;
    unsigned long long r = strtoull(s, &end, base);
    if (errno || *end)
        return -1;
    *v = r;
    return 0;
}

/* Optional sign then parse_u64: *neg and the magnitude. */
static int parse_signed(const char *s, bool *neg, uint64_t *mag)
{
    *neg = false;
    if (*s == '-' || *s == '+') {
        *neg = *s == '-';
        s++;
    }
    return parse_u64(s, mag);
}

static bool is_hex(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* An integer parameter of `bits` width (32 or 64) into raw bits.  Negative
 * values wrap for unsigned kinds; a signed kind takes decimal values in its
 * range and hex bit patterns up to the full width. */
static int parse_int_param(const char *s, int width, bool is_signed,
                           uint64_t *bits)
{
    bool neg;
    uint64_t mag;
    if (parse_signed(s, &neg, &mag) != 0)
        return -1;
    uint64_t sign_bit = (uint64_t)1 << (width - 1);
    uint64_t mask = width == 64 ? UINT64_MAX : (sign_bit << 1) - 1;
    if (neg) {
        if (mag > sign_bit)
            return -1;
        *bits = (0 - mag) & mask;
        return 0;
    }
    uint64_t limit = (is_signed && !is_hex(s)) ? sign_bit - 1 : mask;
    if (mag > limit)
        return -1;
    *bits = mag;
    return 0;
}

/* A float with nothing after it; overflow to infinity is an error unless
 * the text says infinity. */
static int parse_float_param(const char *s, bool f64, uint64_t *bits)
{
    char *end;
    errno = 0;
    if (f64) {
        double v = strtod(s, &end);
        if (end == s || *end)
            return -1;
        if (errno == ERANGE && isinf(v))
            return -1;
        memcpy(bits, &v, sizeof v);
    } else {
        float v = strtof(s, &end);
        if (end == s || *end)
            return -1;
        if (errno == ERANGE && isinf(v))
            return -1;
        uint32_t b;
        memcpy(&b, &v, sizeof b);
        *bits = b;
    }
    return 0;
}

/* A finite, non-negative tolerance. */
static int parse_tolerance(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(*v) || *v < 0)
        return -1;
    return 0;
}

static bool once(parser *p, enum once which, const char *directive)
{
    if (p->first_line[which]) {
        err(p, "duplicate '%s' directive (first at line %d)", directive,
            p->first_line[which]);
        return false;
    }
    p->first_line[which] = p->line;
    return true;
}

static bool arity(parser *p, int ntok, int min, int max, const char *usage)
{
    if (ntok < min || ntok > max) {
        err(p, "wrong number of operands; usage: %s", usage);
        return false;
    }
    return true;
}

static void nomem(parser *p)
{
    err(p, "out of memory");
}

/* `index` is into params (expect false) or expects: the arrays may still
 * move, so no pointers. */
static void add_ref(parser *p, const char *name, int index, bool expect)
{
    if (grow((void **)&p->refs, &p->refcap, p->nrefs, sizeof *p->refs)) {
        nomem(p);
        return;
    }
    char *n = xstrdup(name);
    if (!n) {
        nomem(p);
        return;
    }
    p->refs[p->nrefs++] = (struct pending){ n, p->line, index, expect };
}

static int find_buffer(const rt_case *c, const char *name)
{
    for (int i = 0; i < c->nbuffers; i++)
        if (strcmp(c->buffers[i].name, name) == 0)
            return i;
    return -1;
}

/* Loads a referenced file; errors name the directive's line. */
static int load(parser *p, const char *rel, char **path, uint8_t **data,
                size_t *size)
{
    *path = resolve(p, rel);
    if (!*path) {
        nomem(p);
        return -1;
    }
    char emsg[600];
    if (read_whole(*path, RT_CASE_MAX_BUFFER_BYTES, data, size, emsg,
                   sizeof emsg) != 0) {
        err(p, "%s", emsg);
        return -1;
    }
    return 0;
}

static void dims(parser *p, char **tok, int ntok, uint32_t out[3],
                 enum once which)
{
    if (!arity(p, ntok, 2, 4, which == ONCE_GRID ? "grid X [Y [Z]]"
                                                 : "block X [Y [Z]]"))
        return;
    if (!once(p, which, tok[0]))
        return;
    for (int i = 1; i < ntok; i++) {
        uint64_t v;
        if (parse_u64(tok[i], &v) != 0 || v == 0 || v > UINT32_MAX) {
            err(p, "bad %s dimension '%s' (want an integer from 1 to %u)",
                tok[0], tok[i], (unsigned)UINT32_MAX);
            continue;
        }
        out[i - 1] = (uint32_t)v;
    }
}

static void d_buffer(parser *p, char **tok, int ntok)
{
    rt_case *c = p->c;
    static const char usage[] =
        "buffer NAME file PATH | buffer NAME zero BYTES | "
        "buffer NAME fill BYTES VALUE";
    if (!arity(p, ntok, 4, 5, usage))
        return;
    if (find_buffer(c, tok[1]) >= 0) {
        err(p, "duplicate buffer name '%s'", tok[1]);
        return;
    }
    rt_case_buffer b = { .name = NULL };
    const char *kind = tok[2];
    if (strcmp(kind, "file") == 0) {
        if (!arity(p, ntok, 4, 4, "buffer NAME file PATH"))
            return;
        b.kind = RT_CASE_BUF_FILE;
        if (load(p, tok[3], &b.path, &b.data, &b.size) != 0) {
            free(b.path);
            return;
        }
    } else if (strcmp(kind, "zero") == 0 || strcmp(kind, "fill") == 0) {
        bool fill = kind[0] == 'f';
        if (!arity(p, ntok, fill ? 5 : 4, fill ? 5 : 4,
                   fill ? "buffer NAME fill BYTES VALUE"
                        : "buffer NAME zero BYTES"))
            return;
        uint64_t size;
        if (parse_u64(tok[3], &size) != 0 ||
            size > RT_CASE_MAX_BUFFER_BYTES) {
            err(p, "bad buffer size '%s' (want an integer up to %zu)",
                tok[3], RT_CASE_MAX_BUFFER_BYTES);
            return;
        }
        b.size = (size_t)size;
        b.kind = fill ? RT_CASE_BUF_FILL : RT_CASE_BUF_ZERO;
        if (fill) {
            uint64_t v;
            if (parse_u64(tok[4], &v) != 0 || v > BYTE_MAX_VALUE) {
                err(p, "bad fill byte '%s' (want 0 to %u)", tok[4],
                    BYTE_MAX_VALUE);
                return;
            }
            b.fill = (uint8_t)v;
        }
    } else {
        err(p, "unknown buffer kind '%s' (want file, zero or fill)", kind);
        return;
    }
    b.name = xstrdup(tok[1]);
    if (!b.name ||
        grow((void **)&c->buffers, &p->cap_buffers, c->nbuffers, sizeof b)) {
        free(b.name);
        free(b.path);
        free(b.data);
        nomem(p);
        return;
    }
    c->buffers[c->nbuffers++] = b;
}

static const struct { const char *name; rt_case_param_kind kind; } param_kinds[] = {
    { "ptr", RT_CASE_PARAM_PTR }, { "u32", RT_CASE_PARAM_U32 },
    { "s32", RT_CASE_PARAM_S32 }, { "u64", RT_CASE_PARAM_U64 },
    { "s64", RT_CASE_PARAM_S64 }, { "f32", RT_CASE_PARAM_F32 },
    { "f64", RT_CASE_PARAM_F64 },
};

static void d_param(parser *p, char **tok, int ntok)
{
    rt_case *c = p->c;
    if (!arity(p, ntok, 3, 3, "param ptr NAME | param u32|s32|u64|s64|f32|f64 VALUE"))
        return;
    int k = -1;
    for (size_t i = 0; i < sizeof param_kinds / sizeof param_kinds[0]; i++)
        if (strcmp(tok[1], param_kinds[i].name) == 0)
            k = (int)i;
    if (k < 0) {
        err(p, "unknown parameter type '%s' (want ptr, u32, s32, u64, s64, "
            "f32 or f64)", tok[1]);
        return;
    }
    rt_case_param pr = { .kind = param_kinds[k].kind, .buffer = -1 };
    int rc = 0;
    switch (pr.kind) {
    case RT_CASE_PARAM_PTR: break;
    case RT_CASE_PARAM_U32: rc = parse_int_param(tok[2], 32, false, &pr.bits); break;
    case RT_CASE_PARAM_S32: rc = parse_int_param(tok[2], 32, true, &pr.bits); break;
    case RT_CASE_PARAM_U64: rc = parse_int_param(tok[2], 64, false, &pr.bits); break;
    case RT_CASE_PARAM_S64: rc = parse_int_param(tok[2], 64, true, &pr.bits); break;
    case RT_CASE_PARAM_F32: rc = parse_float_param(tok[2], false, &pr.bits); break;
    case RT_CASE_PARAM_F64: rc = parse_float_param(tok[2], true, &pr.bits); break;
    }
    if (rc != 0) {
        err(p, "bad %s value '%s'", tok[1], tok[2]);
        return;
    }
    if (grow((void **)&c->params, &p->cap_params, c->nparams, sizeof pr)) {
        nomem(p);
        return;
    }
    if (pr.kind == RT_CASE_PARAM_PTR)
        add_ref(p, tok[2], c->nparams, false);
    c->params[c->nparams++] = pr;
}

static void d_expect(parser *p, char **tok, int ntok, bool close)
{
    rt_case *c = p->c;
    if (close ? !arity(p, ntok, 6, 6, "expect-close NAME PATH f32|f64 REL ABS")
              : !arity(p, ntok, 3, 3, "expect NAME PATH"))
        return;
    rt_case_expect e = { .buffer = -1, .close = close };
    if (close) {
        if (strcmp(tok[3], "f32") != 0 && strcmp(tok[3], "f64") != 0) {
            err(p, "bad element type '%s' (want f32 or f64)", tok[3]);
            return;
        }
        e.is_f64 = tok[3][1] == '6';
        if (parse_tolerance(tok[4], &e.rel) != 0) {
            err(p, "bad relative tolerance '%s'", tok[4]);
            return;
        }
        if (parse_tolerance(tok[5], &e.abs) != 0) {
            err(p, "bad absolute tolerance '%s'", tok[5]);
            return;
        }
    }
    if (load(p, tok[2], &e.path, &e.data, &e.size) != 0) {
        free(e.path);
        return;
    }
    if (grow((void **)&c->expects, &p->cap_expects, c->nexpects, sizeof e)) {
        free(e.path);
        free(e.data);
        nomem(p);
        return;
    }
    add_ref(p, tok[1], c->nexpects, true);
    c->expects[c->nexpects++] = e;
}

static const char *const status_names[] = {
    [RT_CASE_STATUS_OK] = "ok", [RT_CASE_STATUS_DEADLOCK] = "deadlock",
    [RT_CASE_STATUS_TRAP] = "trap", [RT_CASE_STATUS_ASSERT] = "assert",
    [RT_CASE_STATUS_FAULT] = "fault",
};
#define NSTATUS ((int)(sizeof status_names / sizeof status_names[0]))

static const char *const check_names[] = {
    "race", "deadlock", "mask", "barrier", "memory", "uninit", "schedule",
};
#define NCHECK ((int)(sizeof check_names / sizeof check_names[0]))

static const char *const stat_names[] = {
    "shared_load_wavefronts", "shared_store_wavefronts",
    "shared_load_bank_conflicts", "shared_store_bank_conflicts",
    "global_load_requests", "global_store_requests",
    "global_load_sectors", "global_store_sectors",
};
#define NSTAT ((int)(sizeof stat_names / sizeof stat_names[0]))

const char *rt_case_status_name(rt_case_status s)
{
    return (int)s >= 0 && (int)s < NSTATUS ? status_names[s] : "?";
}

const char *rt_check_kind_name(unsigned bit)
{
    for (int i = 0; i < NCHECK; i++)
        if (bit == 1u << i)
            return check_names[i];
    return "?";
}

static void d_check(parser *p, char **tok, int ntok)
{
    if (!arity(p, ntok, 2, 2, "expect-check KIND[|KIND...]") ||
        !once(p, ONCE_CHECK, tok[0]))
        return;
    rt_case *c = p->c;
    c->has_check = true;
    if (strcmp(tok[1], "clean") == 0)
        return;
    char *save = NULL;
    for (char *k = strtok_r(tok[1], "|", &save); k;
         k = strtok_r(NULL, "|", &save)) {
        int i = 0;
        while (i < NCHECK && strcmp(k, check_names[i]) != 0)
            i++;
        if (i == NCHECK) {
            err(p, "unknown check kind '%s' (want race, deadlock, mask, "
                "barrier, memory, uninit, schedule or clean)", k);
            continue;
        }
        c->check_kinds |= 1u << i;
    }
}

static void d_stat(parser *p, char **tok, int ntok)
{
    rt_case *c = p->c;
    if (!arity(p, ntok, 3, 3, "expect-stat NAME VALUE"))
        return;
    int i = 0;
    while (i < NSTAT && strcmp(tok[1], stat_names[i]) != 0)
        i++;
    if (i == NSTAT) {
        err(p, "unknown statistic '%s'", tok[1]);
        return;
    }
    rt_case_stat s;
    if (parse_u64(tok[2], &s.value) != 0) {
        err(p, "bad statistic value '%s'", tok[2]);
        return;
    }
    s.name = xstrdup(tok[1]);
    if (!s.name ||
        grow((void **)&c->stats, &p->cap_stats, c->nstats, sizeof s)) {
        free(s.name);
        nomem(p);
        return;
    }
    c->stats[c->nstats++] = s;
}

static void directive(parser *p, char **tok, int ntok)
{
    rt_case *c = p->c;
    const char *d = tok[0];
    if (strcmp(d, "note") == 0)
        return;
    if (strcmp(d, "ptx") == 0) {
        if (!arity(p, ntok, 2, 2, "ptx PATH") || !once(p, ONCE_PTX, d))
            return;
        c->ptx_path = resolve(p, tok[1]);
        if (!c->ptx_path)
            nomem(p);
        else if (access(c->ptx_path, R_OK) != 0)
            err(p, "cannot read '%s': %s", c->ptx_path, strerror(errno));
    } else if (strcmp(d, "kernel") == 0) {
        if (!arity(p, ntok, 2, 2, "kernel NAME") || !once(p, ONCE_KERNEL, d))
            return;
        if (!(c->kernel = xstrdup(tok[1])))
            nomem(p);
    } else if (strcmp(d, "grid") == 0) {
        dims(p, tok, ntok, c->grid, ONCE_GRID);
    } else if (strcmp(d, "block") == 0) {
        dims(p, tok, ntok, c->block, ONCE_BLOCK);
    } else if (strcmp(d, "shared") == 0) {
        if (!arity(p, ntok, 2, 2, "shared BYTES") || !once(p, ONCE_SHARED, d))
            return;
        uint64_t v;
        if (parse_u64(tok[1], &v) != 0 || v > UINT32_MAX)
            err(p, "bad shared size '%s'", tok[1]);
        else
            c->shared_bytes = (uint32_t)v;
    } else if (strcmp(d, "buffer") == 0) {
        d_buffer(p, tok, ntok);
    } else if (strcmp(d, "param") == 0) {
        d_param(p, tok, ntok);
    } else if (strcmp(d, "expect") == 0 || strcmp(d, "expect-close") == 0) {
        d_expect(p, tok, ntok, d[6] == '-');
    } else if (strcmp(d, "expect-stdout") == 0) {
        if (!arity(p, ntok, 2, 2, "expect-stdout PATH") ||
            !once(p, ONCE_STDOUT, d))
            return;
        load(p, tok[1], &c->stdout_path, &c->stdout_data, &c->stdout_size);
    } else if (strcmp(d, "expect-status") == 0) {
        if (!arity(p, ntok, 2, 2, "expect-status ok|deadlock|trap|assert|fault") ||
            !once(p, ONCE_STATUS, d))
            return;
        int i = 0;
        while (i < NSTATUS && strcmp(tok[1], status_names[i]) != 0)
            i++;
        if (i == NSTATUS)
            err(p, "unknown status '%s' (want ok, deadlock, trap, assert or "
                "fault)", tok[1]);
        else
            c->status = (rt_case_status)i, c->has_status = true;
    } else if (strcmp(d, "expect-check") == 0) {
        d_check(p, tok, ntok);
    } else if (strcmp(d, "expect-stat") == 0) {
        d_stat(p, tok, ntok);
    } else {
        err(p, "unknown directive '%s'", d);
    }
}

/* An expected file must match its buffer's size (and, for expect-close,
 * hold whole elements). */
static void check_expect_size(parser *p, const rt_case_expect *e)
{
    const rt_case_buffer *b = &p->c->buffers[e->buffer];
    if (e->size != b->size) {
        err(p, "expected file '%s' is %zu bytes but buffer '%s' is %zu",
            e->path, e->size, b->name, b->size);
        return;
    }
    size_t es = e->is_f64 ? sizeof(double) : sizeof(float);
    if (e->close && e->size % es != 0)
        err(p, "expected file '%s' is %zu bytes, not a whole number of "
            "%s elements", e->path, e->size, e->is_f64 ? "f64" : "f32");
}

static void resolve_refs(parser *p)
{
    rt_case *c = p->c;
    for (int i = 0; i < p->nrefs; i++) {
        struct pending *r = &p->refs[i];
        int idx = r->index;
        int b = find_buffer(c, r->name);
        p->line = r->line;
        if (b < 0)
            err(p, "no buffer named '%s'", r->name);
        else if (r->expect) {
            c->expects[idx].buffer = b;
            check_expect_size(p, &c->expects[idx]);
        }
        else
            c->params[idx].buffer = b;
        free(r->name);
    }
    free(p->refs);
    p->refs = NULL;
    p->nrefs = 0;
}

int rt_case_parse(const char *path, rt_case *c, diag_list *d)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++)
        c->grid[i] = c->block[i] = 1;
    int nerr0 = d->nerrors;
    parser p = { .path = path, .c = c, .d = d };

    c->case_path = xstrdup(path);
    const char *slash = strrchr(path, '/');
    if (!slash)
        p.dir = xstrdup(".");
    else if (slash == path)
        p.dir = xstrdup("/");
    else if ((p.dir = malloc((size_t)(slash - path) + 1))) {
        memcpy(p.dir, path, (size_t)(slash - path));
        p.dir[slash - path] = '\0';
    }
    if (!c->case_path || !p.dir) {
        free(p.dir);
        err(&p, "out of memory");
        return -1;
    }

    uint8_t *text;
    size_t len;
    char emsg[600];
    if (read_whole(path, CASE_FILE_MAX_BYTES, &text, &len, emsg,
                   sizeof emsg) != 0) {
        err(&p, "%s", emsg);
        free(p.dir);
        return -1;
    }

    size_t pos = 0;
    while (pos < len) {
        p.line++;
        size_t eol = pos;
        while (eol < len && text[eol] != '\n')
            eol++;
        char buf[4096];
        size_t n = eol - pos;
        bool nul = memchr(text + pos, '\0', n) != NULL;
        if (n >= sizeof buf) {
            err(&p, "line longer than %zu bytes", sizeof buf - 1);
            pos = eol + 1;
            continue;
        }
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos = eol + 1;
        if (nul) {
            err(&p, "NUL byte in line");
            continue;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *tok[MAX_TOKENS];
        int ntok = 0;
        char *save = NULL;
        for (char *t = strtok_r(buf, " \t\r\f\v", &save); t;
             t = strtok_r(NULL, " \t\r\f\v", &save)) {
            if (ntok < MAX_TOKENS)
                tok[ntok] = t;
            ntok++;
        }
        if (ntok == 0)
            continue;
        if (ntok > MAX_TOKENS)
            ntok = MAX_TOKENS;   /* still too many for any directive */
        directive(&p, tok, ntok);
    }
    free(text);

    resolve_refs(&p);
    p.line = 0;
    if (!p.first_line[ONCE_PTX])
        err(&p, "missing 'ptx' directive");
    if (!p.first_line[ONCE_KERNEL])
        err(&p, "missing 'kernel' directive");
    free(p.dir);
    return d->nerrors > nerr0 ? -1 : 0;
}

void rt_case_free(rt_case *c)
{
    free(c->case_path);
    free(c->ptx_path);
    free(c->kernel);
    for (int i = 0; i < c->nbuffers; i++) {
        free(c->buffers[i].name);
        free(c->buffers[i].path);
        free(c->buffers[i].data);
    }
    free(c->buffers);
    free(c->params);
    for (int i = 0; i < c->nexpects; i++) {
        free(c->expects[i].path);
        free(c->expects[i].data);
    }
    free(c->expects);
    free(c->stdout_path);
    free(c->stdout_data);
    for (int i = 0; i < c->nstats; i++)
        free(c->stats[i].name);
    free(c->stats);
    memset(c, 0, sizeof *c);
}

void rt_case_buffer_init(const rt_case_buffer *b, void *dst)
{
    if (b->size == 0)
        return;
    if (b->kind == RT_CASE_BUF_FILE)
        memcpy(dst, b->data, b->size);
    else
        memset(dst, b->kind == RT_CASE_BUF_FILL ? b->fill : 0, b->size);
}

size_t rt_case_param_size(const rt_case_param *p)
{
    switch (p->kind) {
    case RT_CASE_PARAM_U32: case RT_CASE_PARAM_S32: case RT_CASE_PARAM_F32:
        return sizeof(uint32_t);
    default:
        return sizeof(uint64_t);
    }
}

/* ---- comparisons ---- */

static uint64_t load_le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int rt_compare_bytes(const void *got, size_t gotlen, const void *want,
                     size_t wantlen, size_t elem_size, char *msg,
                     size_t msglen)
{
    const uint8_t *g = got, *w = want;
    size_t n = gotlen < wantlen ? gotlen : wantlen;
    size_t i = 0;
    while (i < n && g[i] == w[i])
        i++;
    if (i == n && gotlen == wantlen)
        return 0;
    if (gotlen != wantlen) {
        if (i == n)
            snprintf(msg, msglen, "got %zu bytes, want %zu (equal up to "
                     "there)", gotlen, wantlen);
        else
            snprintf(msg, msglen, "got %zu bytes, want %zu; first "
                     "difference at byte %zu: got 0x%02x, want 0x%02x",
                     gotlen, wantlen, i, g[i], w[i]);
        return 1;
    }
    if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8)
        elem_size = 1;
    size_t start = i / elem_size * elem_size;
    if (start + elem_size > n) {     /* a partial trailing element */
        elem_size = 1;
        start = i;
    }
    int digits = (int)(2 * elem_size);
    snprintf(msg, msglen, "%zu bytes, first difference at byte %zu "
             "(element %zu as u%zu): got 0x%0*llx, want 0x%0*llx", n, i,
             start / elem_size, 8 * elem_size, digits,
             (unsigned long long)load_le(g + start, elem_size), digits,
             (unsigned long long)load_le(w + start, elem_size));
    return 1;
}

static bool close_enough(double g, double w, double rel, double abs)
{
    if (isnan(w))
        return isnan(g);
    if (isinf(w))
        return g == w;
    if (!isfinite(g))
        return false;
    double tol = fmax(rel * fabs(w), abs);
    return fabs(g - w) <= tol;
}

int rt_compare_close(const void *got, const void *want, size_t n,
                     bool is_f64, double rel, double abs, char *msg,
                     size_t msglen)
{
    size_t es = is_f64 ? sizeof(double) : sizeof(float);
    const uint8_t *gp = got, *wp = want;
    for (size_t i = 0; i < n; i++) {
        double g, w;
        if (is_f64) {
            memcpy(&g, gp + i * es, es);
            memcpy(&w, wp + i * es, es);
        } else {
            float gf, wf;
            memcpy(&gf, gp + i * es, es);
            memcpy(&wf, wp + i * es, es);
            g = gf;
            w = wf;
        }
        if (close_enough(g, w, rel, abs))
            continue;
        int prec = is_f64 ? 17 : 9;
        snprintf(msg, msglen, "element %zu of %zu (%s): got %.*g, want %.*g "
                 "(difference %.3g, tolerance %.3g)", i, n,
                 is_f64 ? "f64" : "f32", prec, g, prec, w, fabs(g - w),
                 fmax(rel * fabs(w), abs));
        return 1;
    }
    return 0;
}
