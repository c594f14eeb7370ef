/* host_modes.c -- the host's rounding and flush modes against vm/fp.c.
 *
 * vm/exec.c computes add, sub, mul and fma.rn.ftz.f32 with the host's own
 * instructions in MXCSR's DAZ + FTZ mode (host_fp_on).  That is PTX's .ftz only
 * if x86 flushes subnormal operands to their signed zeros and flushes a result
 * exactly when it is tiny after rounding with an unbounded exponent (the rule
 * sm_90 follows, tests/fp's ftz_probe).  This checks the host, scalar and 8 wide,
 * against fp32_add/sub/mul/fma(..., FP_RN, ftz = 1, 0) on random bit patterns,
 * on operands from the binades around the bound, and on products and fmas built
 * to land within a few units of 2^-126, counting the cases where the two tininess
 * rules differ (an exact result below 2^-126 that rounds up to it): the check
 * fails if there are too few of those to tell the rules apart.
 * setp.ftz.f32 is vcmpps in the mode too: the compares are checked against C's
 * on the operands flushed by hand.  Last, the other roundings: vm/exec.c runs
 * add, sub, mul, fma, div, sqrt and rcp .f32 (any of .rn/.rz/.rm/.rp, with or
 * without .ftz) and add, sub, mul, fma and div .f64 (any rounding) on the host
 * with MXCSR's RC set, and redoes NaN results by vm/fp.c: each is checked, in
 * each mode, against vm/fp.c on random patterns and operands from the binades
 * where results overflow, underflow or cancel.
 * Prints PASS/FAIL per operation; SKIP off x86-64 or without FMA (vm/exec.c
 * uses the mode only there). */
#include "fp.h"
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

enum { N_RANDOM = 1 << 21, N_BUILT = 1 << 21, MIN_SPLIT = 1000, SHOW = 4 };
enum { MXCSR_DAZ = 1u << 6, MXCSR_FTZ = 1u << 15 };
enum { OP_ADD, OP_SUB, OP_MUL, OP_FMA, NOPS };
static const char *const op_name[NOPS] = { "add.rn.ftz.f32", "sub.rn.ftz.f32", "mul.rn.ftz.f32", "fma.rn.ftz.f32" };

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void)   /* splitmix64 */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t canon(uint32_t r) { return (r & 0x7fffffffu) > 0x7f800000u ? FP32_CANON_NAN : r; }
/* a float with a random sign and significand in binade 2^(e - 127) (e = 0: a subnormal) */
static uint32_t in_binade(uint32_t e) { uint64_t r = next_rand(); return (uint32_t)(r >> 63) << 31 | e << 23 | (uint32_t)(r & 0x7fffff); }

static uint32_t reference(int op, uint32_t a, uint32_t b, uint32_t c)
{
    switch (op) {
    case OP_ADD: return fp32_add(a, b, FP_RN, 1, 0);
    case OP_SUB: return fp32_sub(a, b, FP_RN, 1, 0);
    case OP_MUL: return fp32_mul(a, b, FP_RN, 1, 0);
    default: return fp32_fma(a, b, c, FP_RN, 1, 0);
    }
}

/* The host's results in the mode, one lane at a time and 8 at once.  The operands
 * are read and the results stored between the two MXCSR writes (the barriers keep
 * them there, as host_fp_on's do). */
__attribute__((target("avx2,fma"), noinline)) static void host8(int op, const uint32_t *a, const uint32_t *b,
                                                                 const uint32_t *c, uint32_t *one, uint32_t *wide)
{
    uint32_t csr = _mm_getcsr();
    _mm_setcsr(csr | MXCSR_DAZ | MXCSR_FTZ);
    __asm__ volatile("" ::: "memory");
    for (int l = 0; l < 8; l++) {
        float x = f32(a[l]), y = f32(b[l]), z = f32(c[l]);
        one[l] = bits(op == OP_ADD ? x + y : op == OP_SUB ? x - y : op == OP_MUL ? x * y : __builtin_fmaf(x, y, z));
    }
    __m256 x = _mm256_loadu_ps((const float *)a), y = _mm256_loadu_ps((const float *)b), z = _mm256_loadu_ps((const float *)c);
    __m256 r = op == OP_ADD ? _mm256_add_ps(x, y) : op == OP_SUB ? _mm256_sub_ps(x, y)
             : op == OP_MUL ? _mm256_mul_ps(x, y) : _mm256_fmadd_ps(x, y, z);
    _mm256_storeu_ps((float *)wide, r);
    __asm__ volatile("" ::: "memory");
    _mm_setcsr(csr);
}

/* The compares' masks (bit p of out[l]: predicate p on lane l) in the mode, 8 wide. */
enum { NCMP = 6 };
static const char *const cmp_name[NCMP] = { "eq", "lt", "le", "neu", "ltu", "nan" };
__attribute__((target("avx2"), noinline)) static void cmp8(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
    uint32_t csr = _mm_getcsr();
    _mm_setcsr(csr | MXCSR_DAZ | MXCSR_FTZ);
    __asm__ volatile("" ::: "memory");
    __m256 x = _mm256_loadu_ps((const float *)a), y = _mm256_loadu_ps((const float *)b);
    int m[NCMP] = { _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_EQ_OQ)), _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_LT_OQ)),
                    _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_LE_OQ)), _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_NEQ_UQ)),
                    _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_NGE_UQ)), _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_UNORD_Q)) };
    __asm__ volatile("" ::: "memory");
    _mm_setcsr(csr);
    for (int l = 0; l < 8; l++) {
        out[l] = 0;
        for (int p = 0; p < NCMP; p++) out[l] |= (uint32_t)((m[p] >> l) & 1) << p;
    }
}
static uint32_t ftz_bits(uint32_t u) { return (u & 0x7f800000u) == 0 ? u & 0x80000000u : u; }
/* the same compares of the flushed operands, by C (outside the mode) */
static uint32_t cmp_reference(uint32_t a, uint32_t b)
{
    float x = f32(ftz_bits(a)), y = f32(ftz_bits(b));
    int un = x != x || y != y;
    return (uint32_t)(x == y) | (uint32_t)(x < y) << 1 | (uint32_t)(x <= y) << 2 | (uint32_t)!(x == y) << 3 |
           (uint32_t)(un || x < y) << 4 | (uint32_t)un << 5;
}

/* Whether a * b (+ c) is below 2^-126 in magnitude but rounds to it at 24 bits with an
 * unbounded exponent: the products of floats and their sums with a float near 2^-126 are
 * exact in doubles; scaling by 2^100 makes them normal floats, rounded by the cast. */
static int split_case(int op, uint32_t a, uint32_t b, uint32_t c)
{
    if (op != OP_MUL && op != OP_FMA) return 0;
    double p = (double)f32(a) * (double)f32(b);
    if (op == OP_FMA) {
        double s = p + (double)f32(c);
        if (s - p != (double)f32(c)) return 0;          /* not exact in a double: not counted */
        p = s;
    }
    double m = p < 0 ? -p : p;
    return m < 0x1p-126 && (double)(float)(m * 0x1p100) == 0x1p-26;
}

typedef struct { long n, bad, split; } tally;

static void check8(int op, const uint32_t *a, const uint32_t *b, const uint32_t *c, tally *t)
{
    uint32_t one[8], wide[8];
    host8(op, a, b, c, one, wide);
    for (int l = 0; l < 8; l++) {
        uint32_t want = reference(op, a[l], b[l], c[l]);
        t->n++;
        t->split += split_case(op, a[l], b[l], c[l]);
        if (canon(one[l]) != want || canon(wide[l]) != want) {
            if (t->bad++ < SHOW)
                printf("  %s %08x %08x %08x: host %08x (8 wide %08x), vm/fp.c %08x\n", op_name[op], a[l], b[l], c[l],
                       one[l], wide[l], want);
        }
    }
}

/* 8 operand triples of kind k for op */
static void make8(int op, int k, uint32_t *a, uint32_t *b, uint32_t *c)
{
    for (int l = 0; l < 8; l++) {
        switch (k) {
        case 0:                        /* random bit patterns */
            a[l] = (uint32_t)next_rand(), b[l] = (uint32_t)next_rand(), c[l] = (uint32_t)next_rand();
            break;
        case 1:                        /* subnormals, the smallest normals, and large partners */
            a[l] = in_binade((uint32_t)(next_rand() % 3)), b[l] = in_binade(100 + (uint32_t)(next_rand() % 154));
            c[l] = in_binade((uint32_t)(next_rand() % 4));
            if (next_rand() & 1) { uint32_t s = a[l]; a[l] = b[l], b[l] = s; }
            break;
        case 2: {                      /* a * b within a few units of 2^-126 */
            uint32_t ea = 127 - 20 + (uint32_t)(next_rand() % 41);
            a[l] = in_binade(ea);
            float q = (float)(0x1p-126 * (1.0 + ((double)(int)(next_rand() % 17) - 8) * 0x1p-25) / (double)f32(a[l]));
            b[l] = bits(q) ^ (uint32_t)(next_rand() & 1) << 31;
            b[l] += (uint32_t)(next_rand() % 5) - 2;
            c[l] = next_rand() & 1 ? in_binade(1 + (uint32_t)(next_rand() % 2)) : (uint32_t)(next_rand() & 1) << 31;
            break;
        }
        default: {                     /* fma: a * b plus minus its rounded value (the rounding error) or
                                        * a normal near 2^-126, the sum across the bound */
            a[l] = in_binade(127 - 40 + (uint32_t)(next_rand() % 30)), b[l] = in_binade(127 - 60 + (uint32_t)(next_rand() % 30));
            float p = f32(a[l]) * f32(b[l]);
            c[l] = next_rand() & 1 ? bits(-p) + (uint32_t)(next_rand() % 3) - 1 : in_binade(1 + (uint32_t)(next_rand() % 2));
            break;
        }
        }
    }
    (void)op;
}

/* ---- the other roundings (and .ftz), f32 and f64 ---- */
enum { R_ADD, R_SUB, R_MUL, R_FMA, R_DIV, R_SQRT, R_RCP, NROPS };
static const char *const rop_name[NROPS] = { "add", "sub", "mul", "fma", "div", "sqrt", "rcp" };
static const char *const rnd_name[4] = { "rn", "rz", "rm", "rp" };
enum { N_MODE = 1 << 15 };             /* cases per operation, rounding and .ftz */
static const uint32_t mxcsr_rc[4] = { [FP_RN] = 0, [FP_RZ] = 3u << 13, [FP_RM] = 1u << 13, [FP_RP] = 2u << 13 };

static double f64b(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
/* f32: random, subnormal or small, near 2^-63 (products at the bound), near the top, near 1 */
static uint32_t mode_pick32(void)
{
    static const uint32_t lo[5] = { 0, 0, 60, 250, 120 }, n[5] = { 0, 4, 8, 5, 14 };
    uint32_t k = (uint32_t)(next_rand() % 5);
    return k == 0 ? (uint32_t)next_rand() : in_binade(lo[k] + (uint32_t)(next_rand() % n[k]));
}
static uint64_t mode_pick64(void)
{
    static const uint64_t lo[4] = { 0, 0, 2040, 1000 }, n[4] = { 0, 4, 7, 46 };
    uint64_t r = next_rand(), k = next_rand() % 4;
    return k == 0 ? r : (r & (1ull << 63)) | (lo[k] + (next_rand() % n[k])) << 52 | (r & 0xfffffffffffffull);
}
/* one operation in the mode (rc, and DAZ|FTZ with ftz), scalar as vm/exec.c's lanes */
__attribute__((target("fma"), noinline)) static uint32_t host32(int op, uint32_t rc, int ftz, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t csr = _mm_getcsr();
    _mm_setcsr((csr & ~(3u << 13)) | rc | (ftz ? MXCSR_DAZ | MXCSR_FTZ : 0));
    __asm__ volatile("" ::: "memory");
    volatile float x = f32(a), y = f32(b), z = f32(c);
    float r = op == R_ADD ? x + y : op == R_SUB ? x - y : op == R_MUL ? x * y : op == R_FMA ? __builtin_fmaf(x, y, z)
            : op == R_DIV ? x / y : op == R_SQRT ? _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))) : 1.0f / x;
    volatile uint32_t out = bits(r);
    __asm__ volatile("" ::: "memory");
    _mm_setcsr(csr);
    return out;
}
__attribute__((target("fma"), noinline)) static uint64_t host64(int op, uint32_t rc, uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t csr = _mm_getcsr();
    _mm_setcsr((csr & ~(3u << 13)) | rc);
    __asm__ volatile("" ::: "memory");
    volatile double x = f64b(a), y = f64b(b), z = f64b(c);
    double r = op == R_ADD ? x + y : op == R_SUB ? x - y : op == R_MUL ? x * y : op == R_FMA ? __builtin_fma(x, y, z) : x / y;
    volatile uint64_t out = bits64(r);
    __asm__ volatile("" ::: "memory");
    _mm_setcsr(csr);
    return out;
}
static uint32_t ref32(int op, fp_rnd r, int ftz, uint32_t a, uint32_t b, uint32_t c)
{
    switch (op) {
    case R_ADD: return fp32_add(a, b, r, ftz, 0);
    case R_SUB: return fp32_sub(a, b, r, ftz, 0);
    case R_MUL: return fp32_mul(a, b, r, ftz, 0);
    case R_FMA: return fp32_fma(a, b, c, r, ftz, 0);
    case R_DIV: return fp32_div(a, b, r, ftz);
    case R_SQRT: return fp32_sqrt(a, r, ftz);
    default: return fp32_rcp(a, r, ftz);
    }
}
static uint64_t ref64(int op, fp_rnd r, uint64_t a, uint64_t b, uint64_t c)
{
    switch (op) {
    case R_ADD: return fp64_add(a, b, r);
    case R_SUB: return fp64_sub(a, b, r);
    case R_MUL: return fp64_mul(a, b, r);
    case R_FMA: return fp64_fma(a, b, c, r);
    default: return fp64_div(a, b, r);
    }
}
/* PASS/FAIL per operation and type over every rounding (and .ftz for f32); NaN results
 * are vm/fp.c's own (vm/exec.c redoes them there; f32 ones are the canonical NaN) */
static int check_roundings(void)
{
    int failed = 0;
    for (int op = 0; op < NROPS; op++) {
        long n = 0, bad = 0;
        for (int r = 0; r < 4; r++)
            for (int ftz = 0; ftz < 2; ftz++)
                for (long i = 0; i < N_MODE; i++) {
                    uint32_t a = mode_pick32(), b = mode_pick32(), c = mode_pick32();
                    uint32_t want = ref32(op, (fp_rnd)r, ftz, a, b, c), got = host32(op, mxcsr_rc[r], ftz, a, b, c);
                    n++;
                    if ((want & 0x7fffffffu) > 0x7f800000u) continue;
                    if (got != want && bad++ < SHOW)
                        printf("  %s.%s%s.f32 %08x %08x %08x: host %08x, vm/fp.c %08x\n", rop_name[op], rnd_name[r],
                               ftz ? ".ftz" : "", a, b, c, got, want);
                }
        printf("%s %s.{rn,rz,rm,rp}{,.ftz}.f32: %ld cases, %ld differ\n", bad ? "FAIL" : "PASS", rop_name[op], n, bad);
        failed |= bad != 0;
        if (op > R_DIV) continue;
        n = bad = 0;
        for (int r = 0; r < 4; r++)
            for (long i = 0; i < 2 * N_MODE; i++) {
                uint64_t a = mode_pick64(), b = mode_pick64(), c = mode_pick64();
                uint64_t want = ref64(op, (fp_rnd)r, a, b, c), got = host64(op, mxcsr_rc[r], a, b, c);
                n++;
                if ((want & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) continue;
                if (got != want && bad++ < SHOW)
                    printf("  %s.%s.f64 %016llx %016llx %016llx: host %016llx, vm/fp.c %016llx\n", rop_name[op], rnd_name[r],
                           (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, (unsigned long long)got,
                           (unsigned long long)want);
            }
        printf("%s %s.{rn,rz,rm,rp}.f64: %ld cases, %ld differ\n", bad ? "FAIL" : "PASS", rop_name[op], n, bad);
        failed |= bad != 0;
    }
    return failed;
}

int main(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        printf("SKIP host_modes: this CPU has no AVX2/FMA, so vm/exec.c does not use the host's flush mode\n");
        return 0;
    }
    int failed = 0;
    for (int op = 0; op < NOPS; op++) {
        tally t = { 0, 0, 0 };
        uint32_t a[8], b[8], c[8];
        for (long i = 0; i < N_RANDOM / 8; i++) { make8(op, (int)(i & 1), a, b, c); check8(op, a, b, c, &t); }
        for (long i = 0; i < N_BUILT / 8; i++) { make8(op, 2 + (int)(i & 1), a, b, c); check8(op, a, b, c, &t); }
        int need_split = op == OP_MUL || op == OP_FMA;
        int ok = t.bad == 0 && (!need_split || t.split >= MIN_SPLIT);
        printf("%s %s: %ld cases, %ld differ; %ld where tininess before and after rounding differ%s\n", ok ? "PASS" : "FAIL",
               op_name[op], t.n, t.bad, t.split, need_split && t.split < MIN_SPLIT ? " (too few to tell the rules apart)" : "");
        failed |= !ok;
    }
    /* compares: kinds 0 and 1 of make8, and pairs of subnormals and zeros */
    tally t = { 0, 0, 0 };
    for (long i = 0; i < N_RANDOM / 8; i++) {
        uint32_t a[8], b[8], c[8], got[8];
        make8(OP_ADD, (int)(i % 3 < 2 ? i % 3 : 1), a, b, c);
        if (i % 3 == 2)
            for (int l = 0; l < 8; l++) a[l] = in_binade(0), b[l] = next_rand() & 1 ? in_binade(0) : (uint32_t)(next_rand() & 1) << 31;
        cmp8(a, b, got);
        for (int l = 0; l < 8; l++) {
            uint32_t want = cmp_reference(a[l], b[l]);
            t.n++;
            if (got[l] != want && t.bad++ < SHOW)
                for (int p = 0; p < NCMP; p++)
                    if (((got[l] ^ want) >> p) & 1) printf("  setp.%s.ftz.f32 %08x %08x: host %u, flushed by hand %u\n", cmp_name[p],
                                                             a[l], b[l], (got[l] >> p) & 1, (want >> p) & 1);
        }
    }
    printf("%s setp.{eq,lt,le,neu,ltu,nan}.ftz.f32: %ld cases, %ld differ\n", t.bad ? "FAIL" : "PASS", t.n, t.bad);
    failed |= t.bad != 0;
    failed |= check_roundings();
    return failed;
}
#else
int main(void)
{
    printf("SKIP host_modes: not an x86-64 host, so vm/exec.c does not use the host's flush mode\n");
    return 0;
}
#endif
