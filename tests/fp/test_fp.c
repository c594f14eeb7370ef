/* test_fp.c -- recompute every GPU-recorded case (gpu_results.txt.gz) with
 * vm/fp.c and compare bit for bit (approx ops: against a tolerance). */
#include "fp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

enum { T_F16, T_BF16, T_F32, T_F64, T_F16X2, T_BF16X2, T_INT };
typedef struct {
    char name[64];
    char opc[16];
    int rnd, rint, ftz, sat, nan, approx, full, relu, satfinite;
    int type, dt, st, ibits, isigned;  /* cvt: dt/st float types or T_INT */
    int nsrc;
} opdesc;

static int ftype(const char *t, int *bits, int *sg)
{
    if (!strcmp(t, "f16")) return T_F16;
    if (!strcmp(t, "bf16")) return T_BF16;
    if (!strcmp(t, "f32")) return T_F32;
    if (!strcmp(t, "f64")) return T_F64;
    if (!strcmp(t, "f16x2")) return T_F16X2;
    if (!strcmp(t, "bf16x2")) return T_BF16X2;
    *sg = t[0] == 's';
    *bits = atoi(t + 1);
    return T_INT;
}

static void parse(const char *name, opdesc *d)
{
    memset(d, 0, sizeof *d);
    char buf[256], *tok[16];
    int n = 0;
    size_t L = strlen(name);
    if (L >= sizeof d->name) L = sizeof d->name - 1;
    memcpy(d->name, name, L); d->name[L] = 0;
    memcpy(buf, d->name, L + 1);
    for (char *p = strtok(buf, "."); p && n < 16; p = strtok(NULL, ".")) tok[n++] = p;
    L = strlen(tok[0]); if (L >= sizeof d->opc) L = sizeof d->opc - 1;
    memcpy(d->opc, tok[0], L); d->opc[L] = 0;
    int ntype = strcmp(tok[0], "cvt") == 0 ? 2 : 1;
    for (int i = 1; i < n - ntype; i++) {
        const char *m = tok[i];
        if (!strcmp(m, "rn")) d->rnd = FP_RN; else if (!strcmp(m, "rz")) d->rnd = FP_RZ;
        else if (!strcmp(m, "rm")) d->rnd = FP_RM; else if (!strcmp(m, "rp")) d->rnd = FP_RP;
        else if (!strcmp(m, "rni")) d->rint = FP_RNI + 1; else if (!strcmp(m, "rzi")) d->rint = FP_RZI + 1;
        else if (!strcmp(m, "rmi")) d->rint = FP_RMI + 1; else if (!strcmp(m, "rpi")) d->rint = FP_RPI + 1;
        else if (!strcmp(m, "ftz")) d->ftz = 1; else if (!strcmp(m, "sat")) d->sat = 1;
        else if (!strcmp(m, "NaN")) d->nan = 1; else if (!strcmp(m, "approx")) d->approx = 1;
        else if (!strcmp(m, "full")) d->full = 1; else if (!strcmp(m, "relu")) d->relu = 1;
        else if (!strcmp(m, "satfinite")) d->satfinite = 1;
        else { fprintf(stderr, "unknown modifier %s in %s\n", m, name); exit(2); }
    }
    int b = 0, s = 0;
    if (ntype == 2) {
        d->dt = ftype(tok[n - 2], &b, &s);
        if (d->dt == T_INT) { d->ibits = b; d->isigned = s; }
        d->st = ftype(tok[n - 1], &b, &s);
        if (d->st == T_INT) { d->ibits = b; d->isigned = s; }
        d->nsrc = 1;
    } else d->type = ftype(tok[n - 1], &b, &s);
    if (!strcmp(d->opc, "tanh")) d->approx = 1;
}

#define FAIL_UNSUPPORTED 0xdeadbeefdeadbeefull
static int g_approx_kind; /* set by compute(): 0 exact, 1 approx */

static uint64_t compute(const opdesc *d, const uint64_t *s)
{
    const char *o = d->opc;
    fp_rnd r = (fp_rnd)d->rnd;
    g_approx_kind = d->approx || d->full || !strcmp(o, "tanh");
    /* table-driven MUFU emulation: bit-exact (also checked exhaustively by mufu_check.c) */
    if (d->type == T_F32 && (!strcmp(o, "rcp") || !strcmp(o, "rsqrt") || !strcmp(o, "ex2") || !strcmp(o, "lg2") ||
                             !strcmp(o, "sin") || !strcmp(o, "cos") || !strcmp(o, "tanh") || (!strcmp(o, "sqrt") && d->approx)))
        g_approx_kind = 0;
    /* the f16/bf16 forms: the f32 unit rounded toward zero (mufu_check.c: all 65536 inputs) */
    if ((d->type == T_F16 || d->type == T_BF16 || d->type == T_F16X2 || d->type == T_BF16X2) &&
        (!strcmp(o, "ex2") || !strcmp(o, "tanh")))
        g_approx_kind = 0;
    /* div.approx and div.full .f32: MUFU.RCP times the dividend (mufu_check.c: H200 hashes) */
    if (d->type == T_F32 && !strcmp(o, "div"))
        g_approx_kind = 0;
    /* rcp/rsqrt.approx{.ftz}.f64: MUFU.RCP64H/RSQ64H (mufu_check.c: every high word) */
    if (d->type == T_F64 && (!strcmp(o, "rcp") || !strcmp(o, "rsqrt")))
        g_approx_kind = 0;
    if (!strcmp(o, "cvt")) {
        int fl = (d->ftz ? FP_CVT_FTZ : 0) | (d->sat ? FP_CVT_SAT : 0) | (d->relu ? FP_CVT_RELU : 0) |
                 (d->satfinite ? FP_CVT_SATFINITE : 0);
        if (d->dt == T_INT) return fp_cvt_f2i(s[0], (fp_type)d->st, d->ibits, d->isigned, (fp_rint)(d->rint - 1), fl);
        if (d->st == T_INT) return fp_cvt_i2f(s[0], d->ibits, d->isigned, (fp_type)d->dt, r, fl);
        if (d->rint) {
            if (d->dt != d->st) return FAIL_UNSUPPORTED;
            return fp_cvt_frint(s[0], (fp_type)d->dt, (fp_rint)(d->rint - 1), fl);
        }
        return fp_cvt_f2f(s[0], (fp_type)d->st, (fp_type)d->dt, r, fl);
    }
    int t = d->type;
    uint64_t a = s[0], b = s[1], c = s[2];
    if (t == T_F32) {
        uint32_t A = (uint32_t)a, B = (uint32_t)b, C = (uint32_t)c;
        if (!strcmp(o, "add")) return fp32_add(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "sub")) return fp32_sub(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "mul")) return fp32_mul(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "fma")) return fp32_fma(A, B, C, r, d->ftz, d->sat);
        if (!strcmp(o, "div")) return d->approx ? fp32_div_approx(A, B, d->ftz) : d->full ? fp32_div_full(A, B, d->ftz) : fp32_div(A, B, r, d->ftz);
        if (!strcmp(o, "sqrt")) return d->approx ? fp32_sqrt_approx(A, d->ftz) : fp32_sqrt(A, r, d->ftz);
        if (!strcmp(o, "rcp")) return d->approx ? fp32_rcp_approx(A, d->ftz) : fp32_rcp(A, r, d->ftz);
        if (!strcmp(o, "rsqrt")) return fp32_rsqrt_approx(A, d->ftz);
        if (!strcmp(o, "ex2")) return fp32_ex2_approx(A, d->ftz);
        if (!strcmp(o, "lg2")) return fp32_lg2_approx(A, d->ftz);
        if (!strcmp(o, "sin")) return fp32_sin_approx(A, d->ftz);
        if (!strcmp(o, "cos")) return fp32_cos_approx(A, d->ftz);
        if (!strcmp(o, "tanh")) return fp32_tanh_approx(A);
        if (!strcmp(o, "min")) return fp32_min(A, B, d->ftz, d->nan);
        if (!strcmp(o, "max")) return fp32_max(A, B, d->ftz, d->nan);
        if (!strcmp(o, "abs")) return fp32_abs(A, d->ftz);
        if (!strcmp(o, "neg")) return fp32_neg(A, d->ftz);
        if (!strcmp(o, "copysign")) return fp32_copysign(A, B);
    } else if (t == T_F64) {
        if (!strcmp(o, "add")) return fp64_add(a, b, r);
        if (!strcmp(o, "sub")) return fp64_sub(a, b, r);
        if (!strcmp(o, "mul")) return fp64_mul(a, b, r);
        if (!strcmp(o, "fma")) return fp64_fma(a, b, c, r);
        if (!strcmp(o, "div")) return fp64_div(a, b, r);
        if (!strcmp(o, "sqrt")) return fp64_sqrt(a, r);
        if (!strcmp(o, "rcp")) return d->approx ? fp64_rcp_approx_ftz(a) : fp64_rcp(a, r);
        if (!strcmp(o, "rsqrt")) return fp64_rsqrt_approx(a, d->ftz);
        if (!strcmp(o, "min")) return fp64_min(a, b);
        if (!strcmp(o, "max")) return fp64_max(a, b);
        if (!strcmp(o, "abs")) return fp64_abs(a);
        if (!strcmp(o, "neg")) return fp64_neg(a);
        if (!strcmp(o, "copysign")) return fp64_copysign(a, b);
    } else if (t == T_F16 || t == T_BF16) {
        uint16_t A = (uint16_t)a, B = (uint16_t)b, C = (uint16_t)c;
        int h = t == T_F16;
        if (!strcmp(o, "add")) return h ? fp16_add(A, B, r, d->ftz, d->sat) : bf16_add(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "sub")) return h ? fp16_sub(A, B, r, d->ftz, d->sat) : bf16_sub(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "mul")) return h ? fp16_mul(A, B, r, d->ftz, d->sat) : bf16_mul(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "fma")) {
            if (d->relu) return h ? fp16_fma_relu(A, B, C, d->ftz) : bf16_fma_relu(A, B, C, d->ftz);
            return h ? fp16_fma(A, B, C, r, d->ftz, d->sat) : bf16_fma(A, B, C, r, d->ftz, d->sat);
        }
        if (!strcmp(o, "min")) return h ? fp16_min(A, B, d->ftz, d->nan) : bf16_min(A, B, d->ftz, d->nan);
        if (!strcmp(o, "max")) return h ? fp16_max(A, B, d->ftz, d->nan) : bf16_max(A, B, d->ftz, d->nan);
        if (!strcmp(o, "neg")) return h ? fp16_neg(A, d->ftz) : bf16_neg(A, d->ftz);
        if (!strcmp(o, "abs")) return h ? fp16_abs(A, d->ftz) : bf16_abs(A, d->ftz);
        if (!strcmp(o, "ex2")) return h ? fp16_ex2_approx(A) : bf16_ex2_approx(A);
        if (!strcmp(o, "tanh")) return h ? fp16_tanh_approx(A) : bf16_tanh_approx(A);
    } else if (t == T_F16X2 || t == T_BF16X2) {
        uint32_t A = (uint32_t)a, B = (uint32_t)b, C = (uint32_t)c;
        int h = t == T_F16X2;
        if (!strcmp(o, "add")) return h ? fp16x2_add(A, B, r, d->ftz, d->sat) : bf16x2_add(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "sub")) return h ? fp16x2_sub(A, B, r, d->ftz, d->sat) : bf16x2_sub(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "mul")) return h ? fp16x2_mul(A, B, r, d->ftz, d->sat) : bf16x2_mul(A, B, r, d->ftz, d->sat);
        if (!strcmp(o, "fma")) {
            if (d->relu) return h ? fp16x2_fma_relu(A, B, C, d->ftz) : bf16x2_fma_relu(A, B, C, d->ftz);
            return h ? fp16x2_fma(A, B, C, r, d->ftz, d->sat) : bf16x2_fma(A, B, C, r, d->ftz, d->sat);
        }
        if (!strcmp(o, "min")) return h ? fp16x2_min(A, B, d->ftz, d->nan) : bf16x2_min(A, B, d->ftz, d->nan);
        if (!strcmp(o, "max")) return h ? fp16x2_max(A, B, d->ftz, d->nan) : bf16x2_max(A, B, d->ftz, d->nan);
        if (!strcmp(o, "neg")) return h ? fp16x2_neg(A, d->ftz) : bf16x2_neg(A, d->ftz);
        if (!strcmp(o, "abs")) return h ? fp16x2_abs(A, d->ftz) : bf16x2_abs(A, d->ftz);
        if (!strcmp(o, "ex2")) return h ? fp16x2_ex2_approx(A) : bf16x2_ex2_approx(A);
    }
    return FAIL_UNSUPPORTED;
}

/* ---- approx comparison ---- */
typedef struct { int mb, eb; } fmt_t;
static fmt_t fmt_of(int t) {
    switch (t) { case T_F16: case T_F16X2: return (fmt_t){10, 5}; case T_BF16: case T_BF16X2: return (fmt_t){7, 8};
    case T_F64: return (fmt_t){52, 11}; default: return (fmt_t){23, 8}; }
}
static int isnanf_(fmt_t f, uint64_t x) {
    uint64_t em = ((1ull << f.eb) - 1) << f.mb, fm = (1ull << f.mb) - 1;
    return (x & em) == em && (x & fm);
}
static double tod(fmt_t f, uint64_t x) {
    int bias = (1 << (f.eb - 1)) - 1;
    int s = (int)(x >> (f.mb + f.eb)) & 1;
    uint64_t e = (x >> f.mb) & ((1ull << f.eb) - 1), m = x & ((1ull << f.mb) - 1);
    double v = e == (uint64_t)((1 << f.eb) - 1) ? (m ? NAN : INFINITY)
             : e == 0 ? ldexp((double)m, 1 - bias - f.mb) : ldexp((double)(m | (1ull << f.mb)), (int)e - bias - f.mb);
    return s ? -v : v;
}
/* ordered-int ulp distance */
static int64_t ulpdist(fmt_t f, uint64_t a, uint64_t b) {
    uint64_t sb = 1ull << (f.mb + f.eb);
    int64_t ka = (a & sb) ? -(int64_t)(a & ~sb) : (int64_t)a;
    int64_t kb = (b & sb) ? -(int64_t)(b & ~sb) : (int64_t)b;
    int64_t d = ka - kb;
    return d < 0 ? -d : d;
}

/* returns 1 if ok; updates *maxerr (ulp, or abs err for sin/cos) */
static int approx_ok(const opdesc *d, int t, uint64_t in, uint64_t gpu, uint64_t me, double *maxerr, double *maxerr_all)
{
    fmt_t f = fmt_of(t);
    if (isnanf_(f, gpu) || isnanf_(f, me)) return isnanf_(f, gpu) && isnanf_(f, me);
    double g = tod(f, gpu), m = tod(f, me);
    if (isinf(g) || isinf(m)) return g == m;
    int trig = !strcmp(d->opc, "sin") || !strcmp(d->opc, "cos");
    if (trig) {
        double x = tod(f, in);
        double e = fabs(g - m);
        if (e > *maxerr_all) *maxerr_all = e;
        (void)x;
        if (e > *maxerr) *maxerr = e;
        return e <= ldexp(1, -19);
    }
    if (!strcmp(d->opc, "lg2")) { /* absolute error near 1, relative elsewhere */
        double e = fabs(g - m);
        double ul = (double)ulpdist(f, gpu, me);
        double err = fmin(ul, e * 0x1p22);
        if (err > *maxerr) *maxerr = err;
        return err <= 4;
    }
    int64_t u = ulpdist(f, gpu, me);
    if (((gpu ^ me) >> (f.mb + f.eb)) & 1) { if (g == 0 && m == 0) u = 0; }
    if ((double)u > *maxerr) *maxerr = (double)u;
    return u <= 4;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tests/fp/gpu_results.txt.gz";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s'", path);
    FILE *fp = popen(cmd, "r");
    if (!fp) { perror("popen"); return 1; }
    char line[256];
    opdesc d;
    int have = 0, verbose = getenv("FP_VERBOSE") != NULL;
    long npass_ops = 0, nfail_ops = 0, ncases = 0, nfail_cases = 0;
    long opcases = 0, opfail = 0, shown = 0;
    double maxerr = 0, maxerr_all = 0;
#define FLUSH_OP() do { if (have) { \
        if (opfail) { nfail_ops++; printf("FAIL %-28s %ld/%ld cases differ", d.name, opfail, opcases); } \
        else { npass_ops++; printf("PASS %-28s %ld cases", d.name, opcases); } \
        if (g_kind) printf("  (approx: max err %s %g%s)", (!strcmp(d.opc,"sin")||!strcmp(d.opc,"cos")) ? "abs" : "ulp", maxerr, \
            (!strcmp(d.opc,"sin")||!strcmp(d.opc,"cos")) ? "" : ""); \
        if (g_kind && maxerr_all > 0) printf(" [abs err all |x|: %g]", maxerr_all); \
        printf("\n"); } } while (0)
    int g_kind = 0;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#') {
            FLUSH_OP();
            line[strcspn(line, "\r\n")] = 0;
            parse(line + 1, &d);
            have = 1; opcases = opfail = shown = 0; maxerr = maxerr_all = 0; g_kind = 0;
            continue;
        }
        uint64_t v[4] = {0, 0, 0, 0};
        int n = sscanf(line, "%lx %lx %lx %lx", &v[0], &v[1], &v[2], &v[3]);
        if (n < 2) continue;
        uint64_t gpu = v[n - 1], src[3] = {v[0], n > 2 ? v[1] : 0, n > 3 ? v[2] : 0};
        uint64_t me = compute(&d, src);
        g_kind = g_approx_kind;
        int ok;
        if (me == FAIL_UNSUPPORTED) ok = 0;
        else if (gpu == me) ok = 1;
        else if (g_kind) {
            int t = d.type;
            if (t == T_F16X2 || t == T_BF16X2) {
                int t1 = t == T_F16X2 ? T_F16 : T_BF16;
                ok = approx_ok(&d, t1, src[0] & 0xffff, gpu & 0xffff, me & 0xffff, &maxerr, &maxerr_all) &&
                     approx_ok(&d, t1, src[0] >> 16, gpu >> 16, me >> 16, &maxerr, &maxerr_all);
            } else ok = approx_ok(&d, t, src[0], gpu, me, &maxerr, &maxerr_all);
        } else ok = 0;
        opcases++; ncases++;
        if (!ok) {
            opfail++; nfail_cases++;
            if (shown < (verbose ? 20 : 3)) {
                shown++;
                printf("  mismatch %s:", d.name);
                for (int i = 0; i < n - 1; i++) printf(" %lx", v[i]);
                printf(" -> gpu %lx, ours %lx\n", gpu, me);
            }
        }
    }
    FLUSH_OP();
    pclose(fp);
    /* extra cases recorded by gpu_ftz_probe.cu on sm_90 (ftz tininess rule) */
    {
        int bad = 0;
        for (int r = 0; r < 4; r++) {
            bad += fp32_mul(0x3f7fffff, 0x00800000, (fp_rnd)r, 1, 0) != 0;
            bad += fp32_add(0x00800001, 0x80000002u, (fp_rnd)r, 1, 0) != 0x00800001;
            bad += fp32_fma(0x3f7fffff, 0x00800000, 0x80000001u, (fp_rnd)r, 1, 0) != 0;
        }
        uint64_t dd = 0x380fffffbb1dd6a1ull; /* 1.1754942e-38 */
        bad += fp_cvt_f2f(dd, FP_F64, FP_F32, FP_RP, FP_CVT_FTZ) != 0;
        bad += fp_cvt_f2f(dd, FP_F64, FP_F32, FP_RN, FP_CVT_FTZ) != 0;
        if (bad) { nfail_ops++; printf("FAIL ftz_probe %d cases differ\n", bad); }
        else { npass_ops++; printf("PASS ftz_probe 14 cases\n"); }
    }
    printf("%ld cases checked; %ld mismatching cases\n", ncases, nfail_cases);
    printf("%ld passed, %ld failed\n", npass_ops, nfail_ops);
    return nfail_ops ? 1 : 0;
}
