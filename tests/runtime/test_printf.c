/* test_printf.c — device printf against the host snprintf, on a fake guest
 * memory. */
#include "printf.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GUEST_BASE 0x10000000ull
#define MEM_SIZE (256u << 10)

typedef struct fakemem { uint64_t base; uint8_t *bytes; size_t size; } fakemem;

static int mem_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    fakemem *m = ctx;
    if (addr < m->base || addr - m->base > m->size ||
        n > m->size - (addr - m->base))
        return -1;
    memcpy(dst, m->bytes + (addr - m->base), n);
    return 0;
}

static fakemem mem;
static size_t heap;              /* next free byte for strings/formats */
static uint64_t args_at;         /* guest address of the argument buffer */
static size_t args_off;

static uint64_t put_bytes(const void *p, size_t n)
{
    uint64_t a = mem.base + heap;
    memcpy(mem.bytes + heap, p, n);
    heap += (n + 7) & ~(size_t)7;
    return a;
}

static uint64_t put_str(const char *s)
{
    return put_bytes(s, strlen(s) + 1);
}

static void args_reset(void)
{
    heap = 0;
    args_at = mem.base + MEM_SIZE / 2;
    args_off = 0;
}

static void pack(const void *p, size_t n)
{
    args_off = (args_off + n - 1) / n * n;
    memcpy(mem.bytes + (args_at - mem.base) + args_off, p, n);
    args_off += n;
}
static void a_i32(int32_t v) { pack(&v, sizeof v); }
static void a_i64(int64_t v) { pack(&v, sizeof v); }
static void a_f64(double v) { pack(&v, sizeof v); }
static void a_ptr(uint64_t v) { pack(&v, sizeof v); }

static void show(char *dst, size_t n, const char *p, size_t len)
{
    size_t j = 0;
    for (size_t i = 0; i < len && j + 5 < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= ' ' && c < 0x7f)
            dst[j++] = (char)c;
        else
            j += (size_t)snprintf(dst + j, n - j, "\\x%02x", c);
    }
    dst[j] = '\0';
}

/* Runs fmt (already packed args) and compares with want/wantlen. */
static void expect(const char *name, const char *fmt, const char *want,
                   size_t wantlen, int want_nargs)
{
    uint64_t f = put_str(fmt);
    rt_strbuf out;
    rt_strbuf_init(&out);
    char err[256];
    int rc = rt_printf_format(mem_read, &mem, f, args_off ? args_at : 0, &out,
                              err, sizeof err);
    char g[1024], w[1024];
    show(g, sizeof g, out.data ? out.data : "", out.len);
    show(w, sizeof w, want, wantlen);
    CHECK(rc == want_nargs && out.len == wantlen &&
              memcmp(out.data, want, wantlen) == 0,
          name, "rc %d (%s), got \"%s\", want \"%s\"", rc, err, g, w);
    rt_strbuf_free(&out);
}

#define SAME(name, nargs, fmt, ...)                                      \
    do {                                                                 \
        char want_[2048];                                                \
        int n_ = snprintf(want_, sizeof want_, fmt, __VA_ARGS__);        \
        expect(name, fmt, want_, (size_t)n_, nargs);                     \
    } while (0)

static void test_formats(void)
{
    args_reset();
    expect("no arguments", "hello\n", "hello\n", 6, 0);

    float y = 3.14159f;
    args_reset();
    uint64_t ok = put_str("ok");
    a_i32(42); a_f64(y); a_i32(42); a_ptr(ok);
    SAME("printf_basic line 1", 4,
         "hello from the emulator: x=%d y=%.3f hex=%#x str=%s\n", 42,
         (double)y, 42, "ok");
    args_reset();
    a_i32(-42); a_i32(42); a_f64(y); a_i64(1234567890123LL); a_i32('Z');
    SAME("printf_basic line 2", 5, "%5d|%-5d|%05.1f|%lld|%c\n", -42, 42,
         (double)y, 1234567890123LL, 'Z');

    args_reset();
    a_i32(7); a_f64(-2.5); a_i32(-1); a_i64(-1);
    SAME("int double alignment", 4, "%d %f %u %lld", 7, -2.5, -1u, -1LL);

    args_reset();
    a_i32(300); a_i32(70000); a_i32(300); a_i32(70000); a_i32(-129);
    SAME("hh and h", 5, "%hhd %hd %hhu %hu %hhx", (signed char)300,
         (short)70000, (unsigned char)300, (unsigned short)70000,
         (unsigned char)-129);

    args_reset();
    a_i64(INT64_MIN); a_i64(-1); a_i64(0x123456789abcdefLL); a_i64(42);
    a_i64(-7); a_i64(-8); a_i64(99);
    SAME("64-bit lengths", 7, "%ld %lu %lx %zu %jd %td %Lx", (long)INT64_MIN,
         (unsigned long)-1, 0x123456789abcdefUL, (size_t)42, (intmax_t)-7,
         (ptrdiff_t)-8, 99ULL);

    args_reset();
    a_i32(8); a_i32(8); a_i32(255); a_i32(255); a_i32(5); a_i32(5); a_i32(0);
    a_i32(0); a_i32(0xab); a_i32(0xab); a_i32(-7);
    SAME("flags", 11, "%o %#o %X %#X %+d % d %#x %#o|%-8x|%08x|%+.3d", 8, 8,
         255, 255, 5, 5, 0, 0, 0xab, 0xab, -7);

    args_reset();
    a_i32(6); a_i32(1); a_i32(-6); a_i32(2);
    SAME("star width", 4, "%*d|%*d|", 6, 1, -6, 2);
    /* a '*' precision is printed as written and takes no argument, as the
     * H200 does (tests/cases/printf_formats) */
    args_reset();
    a_i32(6); a_i32(1);
    expect("star precision as written", "%*d|%.*f|%.*s|", "     1|%.*f|%.*s|", 17, 2);

    args_reset();
    double vals[] = { 0.0, -0.0, 1.0, -1.5, 1e300, 1e-300, 123456789.125,
                      INFINITY, -INFINITY, NAN, 5e-324 };
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        args_reset();
        for (int k = 0; k < 11; k++)
            a_f64(vals[i]);
        double v = vals[i];
        char name[64];
        snprintf(name, sizeof name, "float conversions of %g", v);
        SAME(name, 11, "%e %E %g %G %a %A %F %f %.0f %#.0e %+12.4g", v, v, v,
             v, v, v, v, v, v, v, v);
    }

    args_reset();
    uint64_t s1 = put_str("hello, world");
    a_ptr(s1); a_ptr(s1); a_ptr(s1); a_ptr(s1); a_ptr(s1);
    SAME("string forms", 5, "%s|%20s|%-20s|%.2s|%.0s|", "hello, world",
         "hello, world", "hello, world", "hello, world", "hello, world");

    args_reset();
    a_ptr(0); a_ptr(0); a_ptr(0);
    expect("null string", "[%s|%.3s|%8s]", "[(null)|(nu|  (null)]", 21, 3);

    args_reset();
    a_ptr(0); a_ptr(0xdeadbeef); a_ptr(UINT64_MAX);
    SAME("pointers", 3, "%p %p %20p", (void *)0, (void *)0xdeadbeef,
         (void *)UINT64_MAX);

    args_reset();
    a_i32(0); a_i32('x');
    expect("percent and NUL char", "%%|%c|%-3c|", "%|\0|x  |", 8, 2);

    args_reset();
    a_i32(5); a_ptr(0x1234); a_i32(6);
    expect("unknown, %n and trailing %", "%d%y%n%d %", "5%y6 %", 6, 3);

    args_reset();
    a_i32('A'); a_ptr(put_str("wide"));
    expect("lc and ls", "%lc %ls", "A wide", 6, 2);
}

static void test_edges(void)
{
    char err[256];
    rt_strbuf out;
    rt_strbuf_init(&out);
    rt_strbuf_append(&out, "keep", 4);

    int rc = rt_printf_format(mem_read, &mem, 0, 0, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_NULL_FORMAT && out.len == 4, "null format",
          "rc %d", rc);

    rc = rt_printf_format(mem_read, &mem, 0x1000, 0, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_FAULT && out.len == 4 && strstr(err, "0x1000"),
          "unmapped format", "rc %d %s", rc, err);

    /* format whose NUL is the last byte of memory (the chunk read faults) */
    uint64_t end = mem.base + MEM_SIZE;
    memcpy(mem.bytes + MEM_SIZE - 4, "abc", 4);
    rc = rt_printf_format(mem_read, &mem, end - 4, 0, &out, err, sizeof err);
    CHECK(rc == 0 && out.len == 7 && strcmp(out.data, "keepabc") == 0,
          "format ending at end of memory", "rc %d %s", rc, err);
    out.len = 4;
    out.data[4] = '\0';

    /* format running off the end of memory */
    memcpy(mem.bytes + MEM_SIZE - 4, "abcd", 4);
    rc = rt_printf_format(mem_read, &mem, end - 4, 0, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_FAULT && out.len == 4, "format runs off memory",
          "rc %d %s", rc, err);

    /* %.4s of 4 unterminated bytes at the very end: fine */
    args_reset();
    a_ptr(end - 4);
    uint64_t f = put_str("[%.4s]");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == 1 && strcmp(out.data, "keep[abcd]") == 0,
          "precision stops the read", "rc %d %s", rc, err);
    out.len = 4;
    out.data[4] = '\0';

    args_reset();
    a_ptr(end - 4);
    f = put_str("[%s]");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_FAULT && out.len == 4 && strstr(err, "string"),
          "string runs off memory", "rc %d %s", rc, err);

    args_reset();
    a_ptr(0x42);
    f = put_str("x%sy");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_FAULT && out.len == 4, "unmapped string",
          "rc %d %s", rc, err);

    args_reset();
    f = put_str("%d");
    rc = rt_printf_format(mem_read, &mem, f, 0, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_FAULT && strstr(err, "NULL"), "null argument buffer",
          "rc %d %s", rc, err);

    args_reset();
    f = put_str("%d %d");
    int32_t one = 1;
    memcpy(mem.bytes + MEM_SIZE - 4, &one, 4);
    rc = rt_printf_format(mem_read, &mem, f, end - 4, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_FAULT && out.len == 4 && strstr(err, "argument 2"),
          "argument slot faults", "rc %d %s", rc, err);

    args_reset();
    a_i32(1);
    f = put_str("%1000000000d");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_LIMIT, "huge width", "rc %d %s", rc, err);

    args_reset();
    a_i32(1); a_i32(2);
    f = put_str("%800000d%800000d");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_LIMIT && out.len == 4, "output limit", "rc %d %s",
          rc, err);

    args_reset();
    a_i32(INT32_MIN);
    a_i32(1);
    f = put_str("%*d");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_LIMIT, "INT_MIN star width", "rc %d %s", rc, err);

    /* an unterminated 100 KiB string */
    args_reset();
    memset(mem.bytes + 1024, 'q', (100u << 10));
    a_ptr(mem.base + 1024);
    heap = 1024 + (100u << 10) + 8;
    f = put_str("%s");
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == RT_PRINTF_LIMIT && strstr(err, "longer than"),
          "string length limit", "rc %d %s", rc, err);
    memset(mem.bytes, 0, MEM_SIZE);

    /* exactly the longest allowed string */
    args_reset();
    memset(mem.bytes + 1024, 'r', RT_PRINTF_MAX_STRING - 1);
    a_ptr(mem.base + 1024);
    heap = 1024 + RT_PRINTF_MAX_STRING + 8;
    f = put_str("%s");
    out.len = 0;
    rc = rt_printf_format(mem_read, &mem, f, args_at, &out, err, sizeof err);
    CHECK(rc == 1 && out.len == RT_PRINTF_MAX_STRING - 1, "long string",
          "rc %d %s len %zu", rc, err, out.len);
    memset(mem.bytes, 0, MEM_SIZE);

    /* address-space wrap */
    args_reset();
    f = put_str("%d");
    rc = rt_printf_format(mem_read, &mem, f, UINT64_MAX - 1, &out, err,
                          sizeof err);
    CHECK(rc == RT_PRINTF_FAULT, "argument address wraps", "rc %d %s", rc, err);
    rc = rt_printf_format(mem_read, &mem, UINT64_MAX - 2, 0, &out, err,
                          sizeof err);
    CHECK(rc == RT_PRINTF_FAULT, "format address wraps", "rc %d %s", rc, err);
    rt_strbuf_free(&out);
}

/* Real expected output of the printf_basic conformance case. */
static void test_conformance_stdout(void)
{
    FILE *fp = fopen("/work/shared/conformance/cases/printf_basic/expect/stdout.txt", "rb");
    if (!fp) {
        CHECK(0, "printf_basic stdout", "cannot open expected output");
        return;
    }
    char want[512];
    size_t wlen = fread(want, 1, sizeof want, fp);
    fclose(fp);
    rt_strbuf out;
    rt_strbuf_init(&out);
    char err[256];
    float y = 3.14159f;
    args_reset();
    a_i32(42); a_f64(y); a_i32(42); a_ptr(put_str("ok"));
    int rc1 = rt_printf_format(mem_read, &mem,
        put_str("hello from the emulator: x=%d y=%.3f hex=%#x str=%s\n"),
        args_at, &out, err, sizeof err);
    args_reset();
    a_i32(-42); a_i32(42); a_f64(y); a_i64(1234567890123LL); a_i32('Z');
    int rc2 = rt_printf_format(mem_read, &mem,
        put_str("%5d|%-5d|%05.1f|%lld|%c\n"), args_at, &out, err, sizeof err);
    CHECK(rc1 == 4 && rc2 == 5 && out.len == wlen &&
              memcmp(out.data, want, wlen) == 0,
          "printf_basic expected stdout", "got:\n%s", out.data);
    rt_strbuf_free(&out);
}

int main(void)
{
    mem.base = GUEST_BASE;
    mem.size = MEM_SIZE;
    mem.bytes = calloc(1, MEM_SIZE);
    if (!mem.bytes)
        return 2;
    test_formats();
    test_edges();
    test_conformance_stdout();
    free(mem.bytes);
    return t_failed ? 1 : 0;
}
