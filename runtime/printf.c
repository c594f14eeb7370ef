/* printf.c — CUDA device printf: walk the guest format, pull each argument
 * from the packed guest buffer, format each conversion with the host's
 * snprintf. */
#include "printf.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_CHUNK 256           /* bytes fetched per read while scanning a
                                    string */
#define SPEC_MAX 64              /* "%" flags width.prec length conv */
#define SLOT_INT 4
#define SLOT_WIDE 8

void rt_strbuf_init(rt_strbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void rt_strbuf_free(rt_strbuf *b)
{
    free(b->data);
    rt_strbuf_init(b);
}

/* Room for n more bytes plus the terminating NUL. */
static int reserve(rt_strbuf *b, size_t n)
{
    if (n > SIZE_MAX - b->len - 1)
        return -1;
    size_t need = b->len + n + 1;
    if (need <= b->cap)
        return 0;
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    char *nd = realloc(b->data, ncap);
    if (!nd)
        return -1;
    b->data = nd;
    b->cap = ncap;
    return 0;
}

int rt_strbuf_append(rt_strbuf *b, const void *p, size_t n)
{
    if (reserve(b, n) != 0)
        return -1;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

typedef struct fmtstate {
    rt_mem_read_fn rd;
    void *ctx;
    uint64_t args;           /* guest address of the argument buffer */
    uint64_t off;            /* next free offset in it */
    int nargs;               /* slots read */
    rt_strbuf text;          /* this call's output */
    char *err;
    size_t errlen;
} fmtstate;

static int fail(fmtstate *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(fmtstate *s, int code, const char *fmt, ...)
{
    if (s->err && s->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->err, s->errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Reads a guest string at addr into a new NUL-terminated host copy: stops
 * at a NUL or after `max` bytes.  `need_nul`: reaching `max` without a NUL
 * is RT_PRINTF_LIMIT.  Returns 0 or a negative RT_PRINTF_ code. */
static int read_string(fmtstate *s, uint64_t addr, size_t max, bool need_nul,
                       const char *what, char **str, size_t *len)
{
    *str = NULL;
    rt_strbuf b;
    rt_strbuf_init(&b);
    if (reserve(&b, 0) != 0)
        return fail(s, RT_PRINTF_NOMEM, "out of memory");
    b.data[0] = '\0';
    size_t n = 0;
    for (;;) {
        if (n == max) {
            if (need_nul) {
                rt_strbuf_free(&b);
                return fail(s, RT_PRINTF_LIMIT, "%s at 0x%llx is longer "
                            "than %zu bytes", what, (unsigned long long)addr,
                            max);
            }
            break;
        }
        size_t want = max - n < READ_CHUNK ? max - n : READ_CHUNK;
        uint64_t a = addr + n;
        if (a < addr || want - 1 > UINT64_MAX - a) {
            rt_strbuf_free(&b);
            return fail(s, RT_PRINTF_FAULT, "%s at 0x%llx runs past the end "
                        "of the address space", what,
                        (unsigned long long)addr);
        }
        char chunk[READ_CHUNK];
        size_t got = want;
        if (s->rd(s->ctx, a, chunk, want) != 0) {
            /* the chunk may straddle the end of readable memory while the
             * string itself ends before: go byte by byte */
            for (got = 0; got < want; got++) {
                if (s->rd(s->ctx, a + got, chunk + got, 1) != 0)
                    break;
                if (chunk[got] == '\0') {
                    got++;
                    break;
                }
            }
        }
        char *nul = memchr(chunk, '\0', got);
        size_t take = nul ? (size_t)(nul - chunk) : got;
        if (rt_strbuf_append(&b, chunk, take) != 0) {
            rt_strbuf_free(&b);
            return fail(s, RT_PRINTF_NOMEM, "out of memory");
        }
        n += take;
        if (nul)
            break;
        if (got < want) {
            rt_strbuf_free(&b);
            return fail(s, RT_PRINTF_FAULT, "%s at 0x%llx: cannot read guest "
                        "memory at 0x%llx", what, (unsigned long long)addr,
                        (unsigned long long)(a + got));
        }
    }
    *str = b.data;
    *len = b.len;
    return 0;
}

/* Reads the next argument slot of `size` bytes (4 or 8), little-endian. */
static int read_slot(fmtstate *s, size_t size, uint64_t *v)
{
    if (s->args == 0)
        return fail(s, RT_PRINTF_FAULT, "the format needs arguments but the "
                    "argument buffer is NULL");
    uint64_t off = (s->off + size - 1) / size * size;
    uint64_t a = s->args + off;
    if (a < s->args || size - 1 > UINT64_MAX - a)
        return fail(s, RT_PRINTF_FAULT, "argument %d runs past the end of the "
                    "address space", s->nargs + 1);
    uint8_t b[SLOT_WIDE];
    if (s->rd(s->ctx, a, b, size) != 0)
        return fail(s, RT_PRINTF_FAULT, "argument %d: cannot read guest "
                    "memory at 0x%llx", s->nargs + 1, (unsigned long long)a);
    uint64_t r = 0;
    for (size_t i = 0; i < size; i++)
        r |= (uint64_t)b[i] << (8 * i);
    *v = r;
    s->off = off + size;
    s->nargs++;
    return 0;
}

static int check_total(fmtstate *s, size_t more)
{
    if (more > RT_PRINTF_MAX_OUTPUT - s->text.len)
        return fail(s, RT_PRINTF_LIMIT, "output of one printf is longer than "
                    "%zu bytes", RT_PRINTF_MAX_OUTPUT);
    return 0;
}

static int emit(fmtstate *s, const char *p, size_t n)
{
    int rc = check_total(s, n);
    if (rc)
        return rc;
    if (rt_strbuf_append(&s->text, p, n) != 0)
        return fail(s, RT_PRINTF_NOMEM, "out of memory");
    return 0;
}

/* Formats one value with the host snprintf, straight into the output. */
static int emit_formatted(fmtstate *s, const char *spec, ...)
{
    va_list ap, ap2;
    va_start(ap, spec);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, spec, ap);
    int rc = 0;
    if (n < 0)
        rc = fail(s, RT_PRINTF_LIMIT, "cannot format '%s'", spec);
    else if ((rc = check_total(s, (size_t)n)) == 0) {
        if (reserve(&s->text, (size_t)n) != 0)
            rc = fail(s, RT_PRINTF_NOMEM, "out of memory");
        else {
            vsnprintf(s->text.data + s->text.len, (size_t)n + 1, spec, ap2);
            s->text.len += (size_t)n;
        }
    }
    va_end(ap2);
    va_end(ap);
    return rc;
}

enum lenmod { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_BIG_L, LEN_Z,
              LEN_J, LEN_T };

/* A decimal field (width or precision) from the format; values past the
 * output limit are errors, so huge fields never reach snprintf. */
static int parse_field(fmtstate *s, const char *f, size_t *i, long long *v)
{
    long long r = 0;
    while (f[*i] >= '0' && f[*i] <= '9') {
        r = r * 10 + (f[*i] - '0');
        if (r > (long long)RT_PRINTF_MAX_OUTPUT)
            return fail(s, RT_PRINTF_LIMIT, "field width or precision larger "
                        "than %zu", RT_PRINTF_MAX_OUTPUT);
        (*i)++;
    }
    *v = r;
    return 0;
}

/* One conversion starting at f[*i] == '%'; advances *i past it. */
static int conversion(fmtstate *s, const char *f, size_t *i)
{
    size_t start = *i;
    size_t k = start + 1;
    bool minus = false, plus = false, space = false, hash = false, zero = false;
    for (;; k++) {
        char c = f[k];
        if (c == '-') minus = true;
        else if (c == '+') plus = true;
        else if (c == ' ') space = true;
        else if (c == '#') hash = true;
        else if (c == '0') zero = true;
        else if (c == '\'' || c == 'I') ;   /* locale flags: no effect */
        else break;
    }
    long long width = -1, prec = -1;
    uint64_t v;
    int rc;
    if (f[k] == '*') {
        k++;
        if ((rc = read_slot(s, SLOT_INT, &v)))
            return rc;
        long long w = (int32_t)(uint32_t)v;
        if (w < 0) {
            minus = true;
            w = -w;
        }
        if (w > (long long)RT_PRINTF_MAX_OUTPUT)
            return fail(s, RT_PRINTF_LIMIT, "field width %lld larger than %zu",
                        w, RT_PRINTF_MAX_OUTPUT);
        width = w;
    } else if (f[k] >= '0' && f[k] <= '9') {
        if ((rc = parse_field(s, f, &k, &width)))
            return rc;
    }
    if (f[k] == '.') {
        k++;
        if (f[k] == '*') {
            /* The GPU's printf does not expand a '*' precision: it prints
             * the conversion as written and takes no argument (recorded on
             * an H200: "%.*f" prints "%.*f"). */
            k++;
            while (f[k] && strchr("hlLqzjt", f[k])) k++;
            if (f[k]) k++;
            *i = k;
            return emit(s, f + start, k - start);
        } else if ((rc = parse_field(s, f, &k, &prec))) {
            return rc;
        }
    }
    enum lenmod len = LEN_NONE;
    switch (f[k]) {
    case 'h': len = f[k + 1] == 'h' ? LEN_HH : LEN_H; break;
    case 'l': len = f[k + 1] == 'l' ? LEN_LL : LEN_L; break;
    case 'L': len = LEN_BIG_L; break;
    case 'q': len = LEN_LL; break;
    case 'z': len = LEN_Z; break;
    case 'j': len = LEN_J; break;
    case 't': len = LEN_T; break;
    default: break;
    }
    if (len == LEN_HH || len == LEN_LL)
        k += (f[k] == 'q') ? 1 : 2;
    else if (len != LEN_NONE)
        k++;
    char conv = f[k];
    if (conv == '\0') {               /* incomplete: copy as written */
        *i = k;
        return emit(s, f + start, k - start);
    }
    *i = k + 1;

    /* Rebuilt spec: the flags once each, numeric fields, a host length. */
    char spec[SPEC_MAX];
    int n = snprintf(spec, sizeof spec, "%%%s%s%s%s%s", minus ? "-" : "",
                     plus ? "+" : "", space ? " " : "", hash ? "#" : "",
                     zero ? "0" : "");
    if (width >= 0)
        n += snprintf(spec + n, sizeof spec - (size_t)n, "%lld", width);
    if (prec >= 0)
        n += snprintf(spec + n, sizeof spec - (size_t)n, ".%lld", prec);
    bool wide = len == LEN_L || len == LEN_LL || len == LEN_BIG_L ||
                len == LEN_Z || len == LEN_J || len == LEN_T;

    switch (conv) {
    case '%':
        return emit(s, "%", 1);
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        const char *host_len = wide ? "ll" : len == LEN_HH ? "hh"
                             : len == LEN_H ? "h" : "";
        snprintf(spec + n, sizeof spec - (size_t)n, "%s%c", host_len, conv);
        if ((rc = read_slot(s, wide ? SLOT_WIDE : SLOT_INT, &v)))
            return rc;
        bool is_signed = conv == 'd' || conv == 'i';
        if (wide)
            return is_signed ? emit_formatted(s, spec, (long long)v)
                             : emit_formatted(s, spec, (unsigned long long)v);
        return is_signed ? emit_formatted(s, spec, (int)(int32_t)(uint32_t)v)
                         : emit_formatted(s, spec, (unsigned)v);
    }
    case 'c':
        snprintf(spec + n, sizeof spec - (size_t)n, "c");
        if ((rc = read_slot(s, SLOT_INT, &v)))
            return rc;
        return emit_formatted(s, spec, (int)(int32_t)(uint32_t)v);
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a':
    case 'A': {
        snprintf(spec + n, sizeof spec - (size_t)n, "%c", conv);
        if ((rc = read_slot(s, SLOT_WIDE, &v)))
            return rc;
        double d;
        memcpy(&d, &v, sizeof d);
        return emit_formatted(s, spec, d);
    }
    case 'p':
        snprintf(spec + n, sizeof spec - (size_t)n, "p");
        if ((rc = read_slot(s, SLOT_WIDE, &v)))
            return rc;
        return emit_formatted(s, spec, (void *)(uintptr_t)v);
    case 's': {
        snprintf(spec + n, sizeof spec - (size_t)n, "s");
        if ((rc = read_slot(s, SLOT_WIDE, &v)))
            return rc;
        if (v == 0)
            return emit_formatted(s, spec, "(null)");
        size_t max = prec >= 0 && (size_t)prec < RT_PRINTF_MAX_STRING
                   ? (size_t)prec : RT_PRINTF_MAX_STRING;
        char *str;
        size_t slen;
        if ((rc = read_string(s, v, max, prec < 0 || (size_t)prec > max,
                              "%s string", &str, &slen)))
            return rc;
        rc = emit_formatted(s, spec, str);
        free(str);
        return rc;
    }
    case 'n':
        return read_slot(s, SLOT_WIDE, &v);
    default:                          /* unknown: copy as written */
        return emit(s, f + start, *i - start);
    }
}

int rt_printf_format(rt_mem_read_fn rd, void *ctx, uint64_t fmt_addr,
                     uint64_t args_addr, rt_strbuf *out, char *err,
                     size_t errlen)
{
    fmtstate s = { .rd = rd, .ctx = ctx, .args = args_addr, .err = err,
                   .errlen = errlen };
    if (err && errlen)
        err[0] = '\0';
    if (fmt_addr == 0)
        return RT_PRINTF_NULL_FORMAT;
    char *f;
    size_t flen;
    int rc = read_string(&s, fmt_addr, RT_PRINTF_MAX_STRING, true,
                         "printf format", &f, &flen);
    if (rc)
        return rc;
    size_t i = 0;
    while (rc == 0 && i < flen) {
        if (f[i] != '%') {
            const char *pct = memchr(f + i, '%', flen - i);
            size_t n = pct ? (size_t)(pct - (f + i)) : flen - i;
            rc = emit(&s, f + i, n);
            i += n;
        } else {
            rc = conversion(&s, f, &i);
        }
    }
    free(f);
    if (rc == 0 && rt_strbuf_append(out, s.text.data, s.text.len) != 0)
        rc = fail(&s, RT_PRINTF_NOMEM, "out of memory");
    rt_strbuf_free(&s.text);
    return rc ? rc : s.nargs;
}
