/* test_casefile.c — case file parsing and result comparisons. */
#include "casefile.h"
#include "check.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *cases_dir = "/work/shared/conformance/cases";
static char tmpdir[] = "/tmp/rt_casefile_XXXXXX";

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

/* All diagnostics as "file:line: msg\n" lines. */
static void render(const diag_list *d, char *out, size_t n)
{
    out[0] = '\0';
    size_t len = 0;
    for (int i = 0; i < d->n && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s:%d: %s\n",
                                d->v[i].file, d->v[i].line, d->v[i].msg);
}

static int parse_text(const char *text, rt_case *c, diag_list *d, char *path,
                      size_t pathlen)
{
    write_file("case.txt", text);
    snprintf(path, pathlen, "%s/case.txt", tmpdir);
    diag_init(d);
    return rt_case_parse(path, c, d);
}

static void test_all_cases(void)
{
    DIR *dir = opendir(cases_dir);
    if (!dir) {
        CHECK(0, "conformance cases", "cannot open %s", cases_dir);
        return;
    }
    int n = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/case.txt", cases_dir, e->d_name);
        if (access(path, F_OK) != 0)
            continue;
        n++;
        rt_case c;
        diag_list d;
        diag_init(&d);
        if (rt_case_parse(path, &c, &d) != 0) {
            bad++;
            char buf[4096];
            render(&d, buf, sizeof buf);
            printf("FAIL case %s:\n%s", e->d_name, buf);
        }
        rt_case_free(&c);
        diag_list_free(&d);
    }
    closedir(dir);
    CHECK(bad == 0 && n == 96, "all conformance case files parse",
          "%d of %d failed (96 expected)", bad, n);
}

static void test_printf_basic(void)
{
    rt_case c;
    diag_list d;
    diag_init(&d);
    int rc = rt_case_parse("/work/shared/conformance/cases/printf_basic/case.txt",
                           &c, &d);
    float y = 3.14159f;
    uint32_t ybits;
    memcpy(&ybits, &y, sizeof ybits);
    CHECK(rc == 0 && c.grid[0] == 2 && c.grid[1] == 1 && c.grid[2] == 1 &&
              c.block[0] == 32 && c.block[1] == 1 && c.nparams == 2 &&
              c.params[0].kind == RT_CASE_PARAM_S32 && c.params[0].bits == 42 &&
              c.params[1].kind == RT_CASE_PARAM_F32 &&
              c.params[1].bits == ybits && strcmp(c.kernel, "hello_printf") == 0,
          "printf_basic fields", "rc %d", rc);
    CHECK(c.stdout_data && c.stdout_size > 10 &&
              memcmp(c.stdout_data, "hello from", 10) == 0 &&
              strstr(c.ptx_path, "printf_basic/../../ptx/program.ptx"),
          "printf_basic stdout and ptx path", "ptx %s", c.ptx_path);
    rt_case_free(&c);
    diag_list_free(&d);
}

static void test_ballot(void)
{
    rt_case c;
    diag_list d;
    diag_init(&d);
    int rc = rt_case_parse("/work/shared/conformance/cases/ballot_bitpack/case.txt",
                           &c, &d);
    CHECK(rc == 0 && c.nbuffers == 2 && c.buffers[0].kind == RT_CASE_BUF_FILE &&
              c.buffers[0].data && c.buffers[1].kind == RT_CASE_BUF_FILL &&
              c.buffers[1].size == 28 && c.buffers[1].fill == 0xee &&
              c.nparams == 4 && c.params[0].buffer == 0 &&
              c.params[3].buffer == 1 && c.params[1].bits == 200 &&
              c.nexpects == 1 && c.expects[0].buffer == 1 &&
              c.expects[0].size == 28 && !c.has_check,
          "ballot_bitpack fields", "rc %d", rc);
    uint8_t buf[28];
    rt_case_buffer_init(&c.buffers[1], buf);
    CHECK(buf[0] == 0xee && buf[27] == 0xee, "buffer_init fill", "%x", buf[0]);
    rt_case_free(&c);
    diag_list_free(&d);
}

static void test_good_synthetic(void)
{
    write_file("in.bin", "abcdefgh");
    write_file("want.bin", "ABCDEFGH");
    write_file("out.txt", "hi\n");
    write_file("k.ptx", "// ptx\n");
    rt_case c;
    diag_list d;
    char path[512];
    int rc = parse_text(
        "# comment\n"
        "ptx k.ptx   # trailing comment\r\n"
        "kernel k\n"
        "grid 2 3\n"
        "block 4 5 6\n"
        "shared 2048\n"
        "note anything at all\n"
        "\n"
        "   \t\n"
        "param ptr late\n"            /* buffer declared below */
        "param u32 -1\n"
        "param u32 0x10\n"
        "param s32 -2147483648\n"
        "param s32 0xffffffff\n"
        "param u64 0xffffffffffffffff\n"
        "param s64 -9223372036854775808\n"
        "param f32 -1e-3\n"
        "param f32 inf\n"
        "param f64 nan\n"
        "param f64 3.14159\n"
        "param f64 -inf\n"
        "buffer late file in.bin\n"
        "buffer z zero 0\n"
        "expect-close late want.bin f32 1e-5 1e-6\n"
        "expect-stdout out.txt\n"
        "expect-status fault\n"
        "expect-check race|mask\n"
        "expect-stat global_load_sectors 128\n",
        &c, &d, path, sizeof path);
    char msgs[4096];
    render(&d, msgs, sizeof msgs);
    CHECK(rc == 0, "synthetic case parses", "%s", msgs);
    if (rc != 0) {
        rt_case_free(&c);
        diag_list_free(&d);
        return;
    }
    float m = -1e-3f;
    uint32_t mb;
    memcpy(&mb, &m, sizeof mb);
    double pi = 3.14159, ninf = -INFINITY;
    uint64_t pib, ninfb;
    memcpy(&pib, &pi, sizeof pib);
    memcpy(&ninfb, &ninf, sizeof ninfb);
    double nanv;
    memcpy(&nanv, &c.params[9].bits, sizeof nanv);
    CHECK(c.grid[0] == 2 && c.grid[1] == 3 && c.grid[2] == 1 &&
              c.block[2] == 6 && c.shared_bytes == 2048,
          "synthetic geometry", "grid %u %u %u", c.grid[0], c.grid[1], c.grid[2]);
    CHECK(c.params[0].buffer == 0 && c.params[1].bits == 0xffffffffu &&
              c.params[2].bits == 16 && c.params[3].bits == 0x80000000u &&
              c.params[4].bits == 0xffffffffu &&
              c.params[5].bits == UINT64_MAX &&
              c.params[6].bits == 0x8000000000000000ull &&
              c.params[7].bits == mb && c.params[8].bits == 0x7f800000u &&
              isnan(nanv) && c.params[10].bits == pib &&
              c.params[11].bits == ninfb,
          "synthetic param values", "p1 %llx", (unsigned long long)c.params[1].bits);
    CHECK(rt_case_param_size(&c.params[0]) == 8 &&
              rt_case_param_size(&c.params[1]) == 4,
          "param sizes", "wrong");
    CHECK(c.nexpects == 1 && c.expects[0].close && !c.expects[0].is_f64 &&
              c.expects[0].rel == 1e-5 && c.expects[0].abs == 1e-6 &&
              c.stdout_size == 3 && c.status == RT_CASE_STATUS_FAULT &&
              c.has_check && c.check_kinds == (RT_CHECK_RACE | RT_CHECK_MASK) &&
              c.nstats == 1 && c.stats[0].value == 128 &&
              c.buffers[1].size == 0 && c.buffers[0].size == 8,
          "synthetic expectations", "wrong");
    rt_case_free(&c);
    diag_list_free(&d);
}

struct bad { const char *text; const char *want[6]; };

static void test_bad(void)
{
    static const struct bad cases[] = {
        { "ptx k.ptx\nkernel k\nfrobnicate 3\n",
          { "case.txt:3: unknown directive 'frobnicate'" } },
        { "kernel k\n", { "case.txt:0: missing 'ptx' directive" } },
        { "ptx k.ptx\n", { "case.txt:0: missing 'kernel' directive" } },
        { "ptx nope.ptx\nkernel k\n",
          { "case.txt:1: cannot read '", "nope.ptx': No such file" } },
        { "ptx k.ptx\nkernel k\ngrid 0\nblock 1 2 3 4\n",
          { "case.txt:3: bad grid dimension '0'",
            "case.txt:4: wrong number of operands; usage: block X [Y [Z]]" } },
        { "ptx k.ptx\nkernel k\nbuffer a zero 16\nbuffer a zero 8\n"
          "buffer b file missing.bin\nbuffer c fill 4 256\n"
          "buffer d zero 12x\nbuffer e heap 4\n",
          { "case.txt:4: duplicate buffer name 'a'",
            "case.txt:5: cannot open '", "missing.bin': No such file",
            "case.txt:6: bad fill byte '256'", "case.txt:7: bad buffer size '12x'",
            "case.txt:8: unknown buffer kind 'heap'" } },
        { "ptx k.ptx\nkernel k\nparam ptr nobody\nparam u32 4294967296\n"
          "param s32 2147483648\nparam f32 1e39\nparam u32 12abc\nparam i32 1\n",
          { "case.txt:3: no buffer named 'nobody'",
            "case.txt:4: bad u32 value '4294967296'",
            "case.txt:5: bad s32 value '2147483648'",
            "case.txt:6: bad f32 value '1e39'",
            "case.txt:7: bad u32 value '12abc'",
            "case.txt:8: unknown parameter type 'i32'" } },
        { "ptx k.ptx\nkernel k\nkernel j\nbuffer a zero 4\nexpect a\n"
          "expect a in.bin\nexpect-close a want.bin f16 0 0\n"
          "expect-status hung\n",
          { "case.txt:3: duplicate 'kernel' directive (first at line 2)",
            "case.txt:5: wrong number of operands; usage: expect NAME PATH",
            "case.txt:6: expected file '", "in.bin' is 8 bytes but buffer 'a' is 4",
            "case.txt:7: bad element type 'f16'",
            "case.txt:8: unknown status 'hung'" } },
        { "ptx k.ptx\nkernel k\nexpect-check race|bogus\nexpect-stat foo 1\n"
          "expect-stat global_load_sectors -1\nexpect-close x want.bin f32 -1 0\n",
          { "case.txt:3: unknown check kind 'bogus'",
            "case.txt:4: unknown statistic 'foo'",
            "case.txt:5: bad statistic value '-1'",
            "case.txt:6: bad relative tolerance '-1'" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rt_case c;
        diag_list d;
        char path[512];
        int rc = parse_text(cases[i].text, &c, &d, path, sizeof path);
        char msgs[4096];
        render(&d, msgs, sizeof msgs);
        int nwant = 0, ok = rc == -1;
        const char *missing = "";
        for (; nwant < 6 && cases[i].want[nwant]; nwant++)
            if (!strstr(msgs, cases[i].want[nwant])) {
                ok = 0;
                missing = cases[i].want[nwant];
            }
        char name[64];
        snprintf(name, sizeof name, "malformed case %zu", i + 1);
        CHECK(ok, name, "rc %d, missing \"%s\" in:\n%s", rc, missing, msgs);
        rt_case_free(&c);
        diag_list_free(&d);
    }
    /* no case file at all */
    rt_case c;
    diag_list d;
    diag_init(&d);
    int rc = rt_case_parse("/nonexistent/case.txt", &c, &d);
    CHECK(rc == -1 && d.n == 1 && strstr(d.v[0].msg, "cannot open"),
          "missing case file", "rc %d", rc);
    rt_case_free(&c);
    diag_list_free(&d);
}

static void test_compare(void)
{
    uint32_t a[384], b[384];
    for (int i = 0; i < 384; i++)
        a[i] = b[i] = 7;
    char msg[256];
    CHECK(rt_compare_bytes(a, sizeof a, b, sizeof b, 4, msg, sizeof msg) == 0,
          "compare_bytes equal", "%s", msg);
    a[65] = 3;
    int rc = rt_compare_bytes(a, sizeof a, b, sizeof b, 4, msg, sizeof msg);
    CHECK(rc == 1 && strcmp(msg, "1536 bytes, first difference at byte 260 "
                                 "(element 65 as u32): got 0x00000003, want "
                                 "0x00000007") == 0,
          "compare_bytes u32 message", "%s", msg);
    rc = rt_compare_bytes(a, 10, b, 12, 4, msg, sizeof msg);
    CHECK(rc == 1 && strstr(msg, "got 10 bytes, want 12"), "compare_bytes size",
          "%s", msg);
    uint8_t x[3] = { 1, 2, 3 }, y[3] = { 1, 2, 4 };
    rc = rt_compare_bytes(x, 3, y, 3, 4, msg, sizeof msg);
    CHECK(rc == 1 && strstr(msg, "byte 2 (element 2 as u8): got 0x03, want 0x04"),
          "compare_bytes partial element", "%s", msg);

    float g[5] = { 1.0f, NAN, INFINITY, 100.0f, 0.0f };
    float w[5] = { 1.000001f, NAN, INFINITY, 100.0001f, 1e-7f };
    CHECK(rt_compare_close(g, w, 5, false, 1e-5, 1e-6, msg, sizeof msg) == 0,
          "compare_close f32 pass", "%s", msg);
    w[2] = -INFINITY;
    rc = rt_compare_close(g, w, 5, false, 1e-5, 1e-6, msg, sizeof msg);
    CHECK(rc == 1 && strstr(msg, "element 2 of 5") && strstr(msg, "got inf") &&
              strstr(msg, "want -inf"),
          "compare_close infinity sign", "%s", msg);
    w[2] = INFINITY;
    g[1] = 1.0f;
    rc = rt_compare_close(g, w, 5, false, 1e-5, 1e-6, msg, sizeof msg);
    CHECK(rc == 1 && strstr(msg, "element 1"), "compare_close nan vs number",
          "%s", msg);
    double gd[2] = { 1.0, 2.0 }, wd[2] = { 1.0, 2.0 + 1e-12 };
    rc = rt_compare_close(gd, wd, 2, true, 1e-15, 1e-16, msg, sizeof msg);
    CHECK(rc == 1 && strstr(msg, "element 1 of 2 (f64)") &&
              strstr(msg, "want 2.000000000001"),
          "compare_close f64 fail", "%s", msg);
    CHECK(rt_compare_close(gd, wd, 2, true, 1e-11, 0, msg, sizeof msg) == 0,
          "compare_close f64 pass", "%s", msg);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_all_cases();
    test_printf_basic();
    test_ballot();
    test_good_synthetic();
    test_bad();
    test_compare();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return t_failed ? 1 : 0;
}
