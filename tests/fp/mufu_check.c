/* mufu_check.c -- exhaustive bit-exactness check of the table-driven .approx
 * ops (vm/fp_approx.c) against H200 recordings made with gpu_approx_record.cu:
 * each row is a whole binade (or two) of inputs, or all 65536 of a 16-bit form,
 * and the FNV-1a 64 hash of the GPU's (.ftz) results in input order.  The recordings themselves are kept out
 * of git (gpu/approx/).  Then rcp/rsqrt.approx.f64 against f64_hashes.inc (gpu_f64_record.cu): some
 * binades of high words by default, all 2^32 high words with --all (a few minutes).  Then
 * div.full/div.approx{.ftz}.f32 against f32div_hashes.inc (gpu_f32div_record.cu): some binades of
 * the sweeps, some exponent rows of the pairs and the first random group by default; with --all
 * all pairs and random groups and every edge binade of the sweeps (a few minutes); --div-sweeps
 * adds the sweeps' hashes over all 2^32 inputs (whole-warp rows; about an hour); --div-rec DIR
 * STRIDE checks every STRIDE-th binade of each sweep against a recording's per-binade hashes. */
#include "fp.h"
#include "f64_inputs.h"
#include "f64_hashes.inc"
#include "f32div_inputs.h"
#include "f32div_hashes.inc"
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

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

/* ---- div.full/div.approx{.ftz}.f32 against f32div_hashes.inc ---- */
static const char *const div_names[DIV_NOPS] = {"div.full.f32", "div.full.ftz.f32", "div.approx.f32", "div.approx.ftz.f32"};
/* the binades (sign << 8 | exponent field) of div_sweep_edge: subnormals, the smallest normals,
 * [1, 2), [2^126, 2^127), [2^127, 2^128), inf and NaN, negative subnormals, -[2^127, 2^128) */
static const uint32_t div_edge_binade[8] = {0x000, 0x001, 0x07f, 0x0fd, 0x0fe, 0x0ff, 0x100, 0x1fe};

static uint32_t div_op(int op, uint32_t a, uint32_t b)
{
    return op < DIV_APPROX ? fp32_div_full(a, b, op == DIV_FULL_FTZ) : fp32_div_approx(a, b, op == DIV_APPROX_FTZ);
}

/* the hash of one binade of a sweep (side 0: a = fix, b swept; side 1 the reverse), by the
 * scalar function or (row, AVX2) by the whole-warp row */
static uint64_t div_sweep_binade(int op, int side, uint32_t fix, uint32_t binade, int row)
{
    uint64_t h = F64_FNV_BASIS;
    for (uint32_t c = 0; c < (1u << 23) / DIV_CHUNK; c++) {
        uint32_t first = binade << 23 | c * DIV_CHUNK;
        uint64_t ch = F64_FNV_BASIS;
#if defined(__x86_64__)
        if (row) {
            uint64_t fx[32], sw[32], r[32];
            for (int l = 0; l < 32; l++) fx[l] = fix;
            for (uint32_t i = 0; i < DIV_CHUNK; i += 32) {
                for (int l = 0; l < 32; l++) sw[l] = first + i + (uint32_t)l;
                const uint64_t *a = side ? sw : fx, *b = side ? fx : sw;
                if (op < DIV_APPROX) fp32_div_full_row(r, a, b, op == DIV_FULL_FTZ);
                else fp32_div_approx_row(r, a, b, op == DIV_APPROX_FTZ);
                for (int l = 0; l < 32; l++) ch = div_chunk(ch, (uint32_t)r[l]);
            }
            h = f64_fnv(h, ch);
            continue;
        }
#endif
        for (uint32_t i = 0; i < DIV_CHUNK; i++) {
            uint32_t v = first + i;
            ch = div_chunk(ch, side ? div_op(op, v, fix) : div_op(op, fix, v));
        }
        h = f64_fnv(h, ch);
    }
    return h;
}

/* all: every edge binade of every sweep (scalar); whole: the sweeps' totals over all 2^32 inputs
 * (whole-warp row, about an hour) */
static int check_div_sweeps(int all, int whole)
{
    (void)whole;   /* x86-64 only */
    int fails = 0;
    for (int op = 0; op < DIV_NOPS; op++)
        for (int side = 0; side < 2; side++) {
            int n = 0, bad = 0;
            for (int f = 0; f < DIV_N_FIX; f++) {
                /* default: a or b = 1 and 2^126, four of the edge binades */
                for (int e = 0; e < 8; e++) {
                    if (!all && ((f != 0 && f != 6) || (e != 0 && e != 2 && e != 3 && e != 4))) continue;
                    n++;
                    if (div_sweep_binade(op, side, div_fix[f], div_edge_binade[e], 0) != div_sweep_edge[op][side][f][e]) {
                        if (bad++ < 4) printf("  %s = %08x, binade %03x differs\n", side ? "b" : "a", div_fix[f], div_edge_binade[e]);
                    }
                }
            }
            fails += bad != 0;
            printf("%s %-18s %s fixed: %d binades (scalar), %d differ\n", bad ? "FAIL" : "PASS", div_names[op],
                   side ? "b" : "a", n, bad);
        }
#if defined(__x86_64__)
    if (!whole) return fails;
    if (!__builtin_cpu_supports("avx2")) { printf("SKIP div sweeps of 2^32: this CPU has no AVX2\n"); return fails; }
    for (int op = 0; op < DIV_NOPS; op++)
        for (int side = 0; side < 2; side++) {
            int bad = 0;
            for (int f = 0; f < DIV_N_FIX; f++) {
                uint64_t h = F64_FNV_BASIS;
                for (uint32_t b = 0; b < 512; b++) h = f64_fnv(h, div_sweep_binade(op, side, div_fix[f], b, 1));
                if (h != div_sweep_total[op][side][f]) {
                    if (bad++ < 4) printf("  %s = %08x differs\n", side ? "b" : "a", div_fix[f]);
                }
            }
            fails += bad != 0;
            printf("%s %-18s %s fixed: %d sweeps of all 2^32 (whole-warp row), %d differ\n", bad ? "FAIL" : "PASS",
                   div_names[op], side ? "b" : "a", DIV_N_FIX, bad);
        }
#endif
    return fails;
}

/* the recorded results of div_pair(0 ..) in DIR/raw0.bin (ops 0, 1) and raw1.bin (2, 3), one by one
 * (scalar functions) */
static int check_div_raw(const char *dir)
{
    static uint32_t v[2 * DIV_N_RAW];
    int fails = 0;
    for (int half = 0; half < 2; half++) {
        char path[512];
        snprintf(path, sizeof path, "%s/raw%d.bin", dir, half);
        FILE *f = fopen(path, "rb");
        size_t got = f ? fread(v, 4, 2 * DIV_N_RAW, f) : 0;
        if (f) fclose(f);
        if (got != 2 * DIV_N_RAW) { printf("FAIL --div-rec: cannot read %s\n", path); fails++; continue; }
        for (int k = 0; k < 2; k++) {
            int op = 2 * half + k;
            long bad = 0;
            for (uint32_t i = 0; i < DIV_N_RAW; i++) {
                uint64_t p = div_pair(i);
                uint32_t o = div_op(op, (uint32_t)(p >> 32), (uint32_t)p);
                if (o != v[k * DIV_N_RAW + i] && bad++ < 4)
                    printf("  a %08x b %08x: %08x, the H200 %08x\n", (uint32_t)(p >> 32), (uint32_t)p, o, v[k * DIV_N_RAW + i]);
            }
            fails += bad != 0;
            printf("%s %-18s the first %u random pairs one by one against %s, %ld differ\n", bad ? "FAIL" : "PASS",
                   div_names[op], DIV_N_RAW, path, bad);
        }
    }
    return fails;
}

/* --div-rec DIR STRIDE: check_div_raw, then binades STRIDE * k + r of every sweep (r = k % STRIDE,
 * so that each sweep starts at a different offset) by the whole-warp row, against the recording's
 * per-binade hashes (DIR/sweeps.bin of gpu_f32div_record.cu, kept out of git) */
static int check_div_rec(const char *dir, uint32_t stride)
{
    int raw_fails = check_div_raw(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/sweeps.bin", dir);
    FILE *f = fopen(path, "rb");
    static uint64_t rec[DIV_NOPS * 2 * DIV_N_FIX * 512];
    size_t got = f ? fread(rec, 8, sizeof rec / 8, f) : 0;
    if (f) fclose(f);
    if (got != sizeof rec / 8 || !stride) { printf("FAIL --div-rec: cannot read %s\n", path); return raw_fails + 1; }
#if defined(__x86_64__)
    if (!__builtin_cpu_supports("avx2")) { printf("SKIP --div-rec sweeps: this CPU has no AVX2\n"); return raw_fails; }
    int fails = raw_fails;
    for (int op = 0; op < DIV_NOPS; op++)
        for (int side = 0; side < 2; side++) {
            int n = 0, bad = 0;
            for (int fx = 0; fx < DIV_N_FIX; fx++) {
                const uint64_t *h = rec + ((op * 2 + side) * DIV_N_FIX + fx) * 512;
                for (uint32_t b = (uint32_t)(op * 2 + side + fx) % stride; b < 512; b += stride, n++)
                    if (div_sweep_binade(op, side, div_fix[fx], b, 1) != h[b]) {
                        if (bad++ < 4) printf("  %s = %08x, binade %03x differs\n", side ? "b" : "a", div_fix[fx], b);
                    }
            }
            fails += bad != 0;
            printf("%s %-18s %s fixed: %d binades against %s (whole-warp row), %d differ\n", bad ? "FAIL" : "PASS",
                   div_names[op], side ? "b" : "a", n, path, bad);
        }
    return fails;
#else
    printf("SKIP --div-rec sweeps: x86-64 only\n");
    return raw_fails;
#endif
}

/* the pairs of div_exp_pair, rows ea (default: 0, 1, 0x7f, 0xfe, 0xff), and the random pairs
 * (default: the first group); where AVX2 is there, the whole-warp rows against the scalar on
 * the random pairs checked */
static int check_div_pairs(int all)
{
    int fails = 0;
    const uint32_t ngroups = DIV_N_RANDOM / DIV_RANDOM_GROUP;
    for (int op = 0; op < DIV_NOPS; op++) {
        int n = 0, bad = 0;
        for (uint32_t ea = 0; ea < 256; ea++) {
            if (!all && ea != 0 && ea != 1 && ea != 0x7f && ea != 0xfe && ea != 0xff) continue;
            uint64_t row = F64_FNV_BASIS;
            for (uint32_t eb = 0; eb < 256; eb++) {
                uint64_t h = F64_FNV_BASIS;
                for (uint32_t j = 0; j < DIV_PAIR_N; j++) {
                    uint64_t p = div_exp_pair(ea, eb, j);
                    h = div_chunk(h, div_op(op, (uint32_t)(p >> 32), (uint32_t)p));
                }
                row = f64_fnv(row, h);
            }
            n++;
            if (row != div_pair_row[op][ea]) {
                if (bad++ < 4) printf("  exponent of a %02x differs\n", ea);
            }
        }
        fails += bad != 0;
        printf("%s %-18s %d rows of 256 x %u pairs by exponent, %d differ\n", bad ? "FAIL" : "PASS", div_names[op], n,
               DIV_PAIR_N, bad);
        n = bad = 0;
        long rowdiff = -1;
#if defined(__x86_64__)
        if (__builtin_cpu_supports("avx2")) rowdiff = 0;
#endif
        for (uint32_t g = 0; g < (all ? ngroups : 1); g++) {
            uint64_t h = F64_FNV_BASIS;
            for (uint32_t c = 0; c < DIV_RANDOM_GROUP / DIV_CHUNK; c++) {
                uint64_t ch = F64_FNV_BASIS;
                for (uint32_t i = 0; i < DIV_CHUNK; i += 32) {
                    uint64_t a[32], b[32], r[32];
                    for (int l = 0; l < 32; l++) {
                        uint64_t p = div_pair((uint64_t)g * DIV_RANDOM_GROUP + c * DIV_CHUNK + i + (uint32_t)l);
                        a[l] = p >> 32;
                        b[l] = (uint32_t)p;
                        r[l] = div_op(op, (uint32_t)a[l], (uint32_t)b[l]);
                        ch = div_chunk(ch, (uint32_t)r[l]);
                    }
#if defined(__x86_64__)
                    if (rowdiff >= 0) {
                        uint64_t w[32];
                        if (op < DIV_APPROX) fp32_div_full_row(w, a, b, op == DIV_FULL_FTZ);
                        else fp32_div_approx_row(w, a, b, op == DIV_APPROX_FTZ);
                        for (int l = 0; l < 32; l++) rowdiff += w[l] != r[l];
                    }
#endif
                }
                h = f64_fnv(h, ch);
            }
            n++;
            if (h != div_random_hash[op][g]) {
                if (bad++ < 4) printf("  random group %u differs\n", g);
            }
        }
        fails += bad != 0 || rowdiff > 0;
        printf("%s %-18s %d groups of %u random pairs, %d differ; whole-warp row against the scalar: ",
               bad || rowdiff > 0 ? "FAIL" : "PASS", div_names[op], n, DIV_RANDOM_GROUP, bad);
        if (rowdiff < 0) printf("skipped (no AVX2)\n");
        else printf("%ld lanes differ\n", rowdiff);
    }
    return fails;
}

int main(int argc, char **argv)
{
    int fails = 0, all = argc > 1 && !strcmp(argv[1], "--all");
    if (argc > 1 && !strcmp(argv[1], "--div-sweeps")) all = 2;   /* --all and the sweeps' totals */
    if (argc == 4 && !strcmp(argv[1], "--div-rec")) {
        fails = check_div_rec(argv[2], (uint32_t)strtoul(argv[3], NULL, 0));
        printf("mufu div-rec: %d failed\n", fails);
        return fails != 0;
    }
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
    fails += check_div_pairs(all);
    fails += check_div_sweeps(all, all > 1);
    printf("mufu exhaustive: %d failed\n", fails);
    return fails != 0;
}
