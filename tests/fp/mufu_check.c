/* mufu_check.c -- exhaustive bit-exactness check of the table-driven .approx
 * ops (vm/fp_approx.c) against H200 recordings made with gpu_approx_record.cu:
 * each row is a whole binade (or two) of inputs, or all 65536 of a 16-bit form,
 * and the FNV-1a 64 hash of the GPU's (.ftz) results in input order.  The recordings themselves are kept out
 * of git (gpu/approx/).  Then rcp/rsqrt.approx.f64 against f64_hashes.inc (gpu_f64_record.cu): some
 * binades of high words by default, all 2^32 high words with --all (a few minutes). */
#include "fp.h"
#include "f64_inputs.h"
#include "f64_hashes.inc"
#include <stdio.h>
#include <stdint.h>
#include <string.h>

enum { M_RCP, M_RSQ, M_EX2, M_LG2, M_SIN, M_COS, M_SQRT, M_TANH, M_EX2H, M_EX2BF, M_TANHH, M_TANHBF };
static const char *const names[] = {"rcp.approx.ftz.f32", "rsqrt.approx.ftz.f32", "ex2.approx.ftz.f32",
                                    "lg2.approx.ftz.f32", "sin.approx.ftz.f32",  "cos.approx.ftz.f32",
                                    "sqrt.approx.ftz.f32", "tanh.approx.f32",    "ex2.approx.f16",
                                    "ex2.approx.ftz.bf16", "tanh.approx.f16",    "tanh.approx.bf16"};
static const struct { int op; uint32_t base, n; uint64_t hash; } rows[] = {
    {M_RCP, 0x3f800000u, 8388608u, 0xfa72a6c698274964ull},
    {M_RSQ, 0x3f800000u, 16777216u, 0xbdf1cb386ee78bc2ull},
    {M_EX2, 0x3f000000u, 8388608u, 0x1938ae1ca053e4e7ull},
    {M_EX2, 0x3f800000u, 8388608u, 0x3f0f3852f2fa7edbull},
    {M_EX2, 0xbf000000u, 8388608u, 0x86cbd167bc4daa17ull},
    {M_EX2, 0xbf800000u, 8388608u, 0xbf4f30a37a9d5b98ull},
    {M_LG2, 0x3f800000u, 16777216u, 0x70630107fd540590ull},
    {M_LG2, 0x3f000000u, 8388608u, 0xf8884f097b12e53dull},
    {M_EX2, 0x3e800000u, 8388608u, 0xb94e8e67fa1d559dull},
    {M_LG2, 0x40000000u, 8388608u, 0x68a8fcc691e51fd5ull},
    /* gpu_sincos_record.cu */
    {M_SIN, 0x35800000u, 8388608u, 0x0e5cbc96d11ffde5ull},
    {M_SIN, 0x3b800000u, 8388608u, 0x02a4a76f0c114b71ull},
    {M_SIN, 0x3e800000u, 8388608u, 0x2398c5d864f2b665ull},
    {M_SIN, 0x3f000000u, 8388608u, 0x751f616942de2910ull},
    {M_SIN, 0x3f800000u, 8388608u, 0xffc89f2c26d596eaull},
    {M_SIN, 0x40000000u, 8388608u, 0x5c6b19fd65eecc06ull},
    {M_SIN, 0x40800000u, 8388608u, 0xdb56c449555a1951ull},
    {M_SIN, 0x45800000u, 8388608u, 0x11b78ed08842376eull},
    {M_SIN, 0x4b800000u, 8388608u, 0x5084323a0e222325ull},
    {M_SIN, 0xbf800000u, 8388608u, 0x0f94ada926d596eaull},
    {M_COS, 0x35800000u, 8388608u, 0x72474641840873c9ull},
    {M_COS, 0x3b800000u, 8388608u, 0x5427ac3505ac4c52ull},
    {M_COS, 0x3e800000u, 8388608u, 0x2e1cd9af353856ffull},
    {M_COS, 0x3f000000u, 8388608u, 0xa6f02f9fbaf8b936ull},
    {M_COS, 0x3f800000u, 8388608u, 0x0f10a7e30f1e42adull},
    {M_COS, 0x40000000u, 8388608u, 0x0d925790c47a3f92ull},
    {M_COS, 0x40800000u, 8388608u, 0x5e2e85d84cc939d6ull},
    {M_COS, 0x45800000u, 8388608u, 0xd7483c98712996b6ull},
    {M_COS, 0x4b800000u, 8388608u, 0x16b75af2da222325ull},
    {M_COS, 0xbf800000u, 8388608u, 0x0f10a7e30f1e42adull},
    {M_SQRT, 0x00800000u, 8388608u, 0xfa76f3fbdec39119ull},
    {M_SQRT, 0x3f800000u, 8388608u, 0xec162b03dcc39119ull},
    {M_SQRT, 0x40000000u, 8388608u, 0x30da7c2ce0196274ull},
    {M_SQRT, 0x7f000000u, 8388608u, 0x1d53c583a1196274ull},
    /* tanh.approx.f32 (every binade of all 2^32 was hashed and matches; these are the
     * table's 11 binades [2^-8, 8) and the edges: x itself below 2^-8, subnormals
     * included, +-1 from 8, inf; NaN gives 0x7fffffff) */
    {M_TANH, 0x00000000u, 8388608u, 0x5143236de3a22325ull},
    {M_TANH, 0x3b000000u, 8388608u, 0x2e786ba765a22325ull},
    {M_TANH, 0x3b800000u, 8388608u, 0xa5225f3811890125ull},
    {M_TANH, 0x3c000000u, 8388608u, 0xecb329ce085bf0e5ull},
    {M_TANH, 0x3c800000u, 8388608u, 0x7b3a97d1d68e8aa5ull},
    {M_TANH, 0x3d000000u, 8388608u, 0xf141597deeb063c5ull},
    {M_TANH, 0x3d800000u, 8388608u, 0x6141712b0f75d125ull},
    {M_TANH, 0x3e000000u, 8388608u, 0x4ada670dafb6c6e5ull},
    {M_TANH, 0x3e800000u, 8388608u, 0x0bf2ef9f6a7f5765ull},
    {M_TANH, 0x3f000000u, 8388608u, 0xecb8e846da554505ull},
    {M_TANH, 0x3f800000u, 8388608u, 0x84573e3df0ccdcc5ull},
    {M_TANH, 0x40000000u, 8388608u, 0xbfc31f94c1f848c5ull},
    {M_TANH, 0x40800000u, 8388608u, 0xeec2f6aa30eb92ddull},
    {M_TANH, 0x41000000u, 8388608u, 0x9df6f734c6222325ull},
    {M_TANH, 0x7f800000u, 8388608u, 0x3ada9a4da7dddcdaull},
    {M_TANH, 0x80000000u, 8388608u, 0xdeffde98e3a22325ull},
    {M_TANH, 0xbf800000u, 8388608u, 0xba549f08f0ccdcc5ull},
    {M_TANH, 0xc0000000u, 8388608u, 0x38533b39c1f848c5ull},
    {M_TANH, 0xff800000u, 8388608u, 0xf9da9a4d27dddcdaull},
    /* the f16/bf16 forms: all 65536 inputs (the .f16x2/.bf16x2 forms give each half
     * the scalar result, checked on the H200 too) */
    {M_EX2H, 0u, 65536u, 0x80729ac6ad55e21aull},
    {M_EX2BF, 0u, 65536u, 0x70809a4dea78138aull},
    {M_TANHH, 0u, 65536u, 0xad1f254087177b9dull},
    {M_TANHBF, 0u, 65536u, 0x0483e97475bf5a09ull},
};

#if defined(__x86_64__)
static uint32_t tanh_one(uint32_t a, int ftz)   /* tanh.approx.f32 has no .ftz */
{
    (void)ftz;
    return fp32_tanh_approx(a);
}
#endif

/* ---- rcp/rsqrt.approx{.ftz}.f64 against f64_hashes.inc ---- */
static uint64_t f64_op(int op, uint64_t x)   /* op: 0 rcp.ftz, 1 rsqrt.ftz, 2 rsqrt */
{
    return op == 0 ? fp64_rcp_approx_ftz(x) : fp64_rsqrt_approx(x, op == 1);
}

/* the binades checked without --all: exponent fields 0 .. 2 (subnormal and zero high words,
 * the smallest normals), 0x3fd .. 0x401 (around 1), 0x7fc .. 0x7ff (the largest, inf, NaN),
 * both signs, and every 64th binade */
static int f64_default_binade(uint32_t b)
{
    uint32_t ef = b & 0x7ff;
    return ef <= 2 || (ef >= 0x3fd && ef <= 0x401) || ef >= 0x7fc || b % 64 == 21;
}

static int check_f64(int all)
{
    static const struct { const char *name; int op, lo, set; } rows[] = {
        {"rcp.approx.ftz.f64", 0, 1, 0}, {"rsqrt.approx.ftz.f64", 1, 1, 1},
        {"rsqrt.approx.f64", 2, 1, 2},   {"rsqrt.approx.f64", 2, 0, 3},
        /* --all only: the .ftz forms with low word 0 hash as with f64_low (so on the H200) */
        {"rcp.approx.ftz.f64", 0, 0, 0}, {"rsqrt.approx.ftz.f64", 1, 0, 1},
    };
    int fails = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (r >= 4 && !all) break;
        int n = 0, bad = 0;
        for (uint32_t b = 0; b < 4096; b++) {
            if (!all && !f64_default_binade(b)) continue;
            uint64_t h = F64_FNV_BASIS;
            for (uint32_t i = 0; i < (1u << 20); i++) {
                uint32_t hi = b << 20 | i;
                h = f64_fnv(h, f64_op(rows[r].op, (uint64_t)hi << 32 | (rows[r].lo ? f64_low(hi) : 0)));
            }
            n++;
            if (h != f64_binade_hash[rows[r].set][b]) {
                if (bad++ < 4) printf("  binade %08x differs\n", b << 20);
            }
        }
        fails += bad != 0;
        printf("%s %-22s low word %s: %d binades of 2^20 high words, %d differ\n", bad ? "FAIL" : "PASS",
               rows[r].name, rows[r].lo ? "f64_low" : "0", n, bad);
    }
    for (int op = 0; op < 3; op++) {
        uint64_t h = F64_FNV_BASIS;
        for (uint32_t i = 0; i < F64_N_RANDOM; i++) h = f64_fnv(h, f64_op(op, f64_input(i)));
        int ok = h == f64_random_hash[op];
        fails += !ok;
        printf("%s %-22s %u pseudo-random operands (f64_input)\n", ok ? "PASS" : "FAIL", rows[op].name, F64_N_RANDOM);
    }
    return fails;
}

int main(int argc, char **argv)
{
    int fails = 0, all = argc > 1 && !strcmp(argv[1], "--all");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint32_t i = 0; i < rows[r].n; i++) {
            uint32_t a = rows[r].base + i, o;
            switch (rows[r].op) {
            case M_RCP: o = fp32_rcp_approx(a, 1); break;
            case M_RSQ: o = fp32_rsqrt_approx(a, 1); break;
            case M_EX2: o = fp32_ex2_approx(a, 1); break;
            case M_LG2: o = fp32_lg2_approx(a, 1); break;
            case M_SIN: o = fp32_sin_approx(a, 1); break;
            case M_COS: o = fp32_cos_approx(a, 1); break;
            case M_SQRT: o = fp32_sqrt_approx(a, 1); break;
            case M_TANH: o = fp32_tanh_approx(a); break;
            case M_EX2H: o = fp16_ex2_approx((uint16_t)a); break;
            case M_EX2BF: o = bf16_ex2_approx((uint16_t)a); break;
            case M_TANHH: o = fp16_tanh_approx((uint16_t)a); break;
            default: o = bf16_tanh_approx((uint16_t)a); break;
            }
            h ^= o;
            h *= 0x100000001b3ull;
        }
        int ok = h == rows[r].hash;
        fails += !ok;
        printf("%s %-22s inputs %08x..%08x (%u)\n", ok ? "PASS" : "FAIL", names[rows[r].op], rows[r].base,
               rows[r].base + rows[r].n - 1, rows[r].n);
    }
#if defined(__x86_64__)
    /* the whole-warp rows (vm/fp_approx.c) against the functions checked above: every input of
     * binade and every 1021st input of all 2^32, with and without .ftz (all 2^32 were compared
     * once, with no difference) */
    static const struct {
        const char *name;
        void (*row)(uint64_t *, const uint64_t *, int);
        uint32_t (*one)(uint32_t, int);
        uint32_t dense;                /* a binade checked input by input */
    } rows_fn[] = {
        {"rcp", fp32_rcp_approx_row, fp32_rcp_approx, 0x3f800000u},
        {"ex2", fp32_ex2_approx_row, fp32_ex2_approx, 0xbf800000u},
        {"rsqrt", fp32_rsqrt_approx_row, fp32_rsqrt_approx, 0x3f800000u},
        {"lg2", fp32_lg2_approx_row, fp32_lg2_approx, 0x3f800000u},
        {"sin", fp32_sin_approx_row, fp32_sin_approx, 0x40000000u},
        {"cos", fp32_cos_approx_row, fp32_cos_approx, 0x40000000u},
        {"sqrt", fp32_sqrt_approx_row, fp32_sqrt_approx, 0x3f800000u},
        {"tanh", fp32_tanh_approx_row, tanh_one, 0x40000000u},   /* [2, 4): 16 segments */
    };
    if (__builtin_cpu_supports("avx2")) {
        for (size_t fn = 0; fn < sizeof rows_fn / sizeof rows_fn[0]; fn++)
        for (int ftz = 0; ftz < 2; ftz++) {
            long bad = 0, n = 0;
            uint64_t in[32], out[32];
            for (uint64_t a = 0; a < (1ull << 32); a += 32) {
                int dense = a >= rows_fn[fn].dense && a < rows_fn[fn].dense + 0x800000u;
                if (!dense && a % (1021 * 32)) continue;
                for (int l = 0; l < 32; l++) in[l] = dense ? (uint32_t)(a + l) : (uint32_t)(a * 7 + l * 0x9e3779b1u);
                rows_fn[fn].row(out, in, ftz);
                for (int l = 0; l < 32; l++, n++) bad += out[l] != rows_fn[fn].one((uint32_t)in[l], ftz);
            }
            printf("%s %s.approx%s.f32 whole-warp row against the scalar: %ld inputs, %ld differ\n", bad ? "FAIL" : "PASS",
                   rows_fn[fn].name, ftz ? ".ftz" : "", n, bad);
            fails += bad != 0;
        }
    } else printf("SKIP whole-warp rows: this CPU has no AVX2\n");
#endif
    fails += check_f64(all);
    printf("mufu exhaustive: %d failed\n", fails);
    return fails != 0;
}
