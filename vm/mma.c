/* mma.c — tensor-core instructions: fragment layouts (PTX ISA, "Matrix fragments
 * for mma.m16n8k16" and friends; ldmatrix / stmatrix / movmatrix) and the
 * multiply-accumulate arithmetic, fitted to an H200 (tests/vm/cases/mma_sync):
 *
 *   f16 / bf16 / tf32 inputs, f32 (or f16) accumulator, one step for the whole k
 *   (k8 and k16 alike): the products are exact.  Each term has an exponent: the
 *   accumulator its own, a product the sum of its factors' (unbiased exponent fields,
 *   1 - bias for subnormals, so the product's significand lies in [0, 4) times
 *   2^exponent).  Emax is the largest exponent among the nonzero terms (not where
 *   their leading bits are).  Every term is truncated toward zero (in magnitude)
 *   to a multiple of 2^(Emax - 25), the truncated terms are summed exactly, and the
 *   sum is rounded once: to f32 toward zero (an overflow gives inf), or for an f16
 *   accumulator straight to f16 to nearest.  An exact zero sum is +0, whatever the
 *   signs.  tf32 operands are their top 19 bits (the low 13 are not read, even in
 *   a NaN).  Inf/NaN operands: NaN 0x7fffffff, inf - inf NaN, inf * 0 NaN.
 *   Fitted bit-exact on an H200: tests/vm/cases/mma_sync, mma_f32acc (sparse,
 *   cancelling, boundary-gap, subnormal, signed-zero, huge operands), wmma_f16.
 *   wmma m16n16k8 (tf32) alone takes k in two steps of 4, each rounded as above.
 *   f64 (m8n8k4): a chain of IEEE fmas along k.  Integers: exact, wrapping in 32
 *   bits (.satfinite clamps).
 *
 * wmma fragments use the emulator's own layout (fragments are opaque in PTX):
 * element e of an A or B fragment in the order of its memory layout (row-major
 * for row, column-major for col), or of a C/D fragment in row-major order, is
 * element e % per of lane e / per (per: the matrix's elements / 32).
 */
#include <math.h>
#include <string.h>
#include "mma.h"
#include "fp.h"


/* ---- the model ----------------------------------------------------------------- */

static struct mma_model {
    int block;         /* products summed together with the accumulator */
    int pbits;         /* bits kept below the alignment point (see nominal) */
    int nominal;       /* 1: align to the largest exponent field (products: ea + eb), 0: to the largest leading bit */
    int rz;            /* 1: the block sum is rounded toward zero, 0: to nearest */
    int floor_neg;     /* 1: dropped bits of negative terms round toward -inf */
    int ftz_c;         /* 1: a subnormal f32 accumulator input counts as zero */
    int tf32_rn;       /* 1: tf32 operands are rounded to 10 bits, 0: truncated */
    int negzero;       /* 1: an exact zero sum of all-negative zeros is -0 (an H200: +0, k8 measured) */
    int f16_rz;        /* 1: f16 results are rounded toward zero (from the exact block sum) */
    int nan_c_first;   /* f64: which NaN operand wins (index into ord in fma64: 4 = b, c, a) */
} MD = { 16, 25, 1, 1, 0, 0, 0, 0, 0, 4 };

/* ---- elements ------------------------------------------------------------------------ */

static int tbits(int t)
{
    switch (t) {
    case MMA_T_F16: case MMA_T_BF16: return 16;
    case MMA_T_S8: case MMA_T_U8: return 8;
    case MMA_T_F64: return 64;
    default: return 32;
    }
}

static uint64_t get_el(const uint64_t *regs, int i, int bits)
{
    if (bits == 64) return regs[i];
    int per = 32 / bits;
    return (regs[i / per] >> (bits * (i % per))) & ((1ull << bits) - 1);
}

static void put_el(uint64_t *regs, int i, int bits, uint64_t v)
{
    if (bits == 64) { regs[i] = v; return; }
    int per = 32 / bits, sh = bits * (i % per);
    uint64_t m = ((1ull << bits) - 1) << sh;
    regs[i / per] = (regs[i / per] & ~m) | ((v << sh) & m);
}

/* The shape's rows (M), columns (N) and depth (K). */
static void dims(int shape, int *M, int *N, int *K)
{
    switch (shape) {
    case MMA_M16N8K16: *M = 16; *N = 8; *K = 16; return;
    case MMA_M16N8K8: *M = 16; *N = 8; *K = 8; return;
    case MMA_M8N8K4: *M = 8; *N = 8; *K = 4; return;
    case MMA_M16N8K32: *M = 16; *N = 8; *K = 32; return;
    case MMA_M16N16K8: *M = 16; *N = 16; *K = 8; return;
    default: *M = 16; *N = 16; *K = 16; return;
    }
}

int mma_regs(const mma_desc *m, int *nd, int *na, int *nb, int *nc)
{
    int dcb = tbits(m->dt), ccb = tbits(m->ct);
    int M, N, K;
    dims(m->shape, &M, &N, &K);
    int ab = tbits(m->at), bb = tbits(m->bt);
    *na = M * K * ab / 32 / 32;
    *nb = K * N * bb / 32 / 32;
    *nc = M * N * ccb / 32 / 32;
    *nd = M * N * dcb / 32 / 32;
    if (ab == 64) { *na = M * K / 32; *nb = K * N / 32; }
    if (ccb == 64) *nc = M * N / 32;
    if (dcb == 64) *nd = M * N / 32;
    if (m->shape == MMA_M16N16K16 && m->at == MMA_T_F16) { *na = 8; *nb = 8; }   /* wmma: f16 a/b fragments are 8 registers */
    return 1;
}

/* Lane and element index of A[r][k], B[k][c], C[r][c] in the fragment layouts. */
static void frag_a(const mma_desc *m, int r, int k, int *lane, int *idx)
{
    switch (m->shape) {
    case MMA_M16N8K16:      /* a0..a7: rows g, g+8; cols 2t+(i&1), +8 for i >= 4 */
        *lane = (r % 8) * 4 + (k % 8) / 2;
        *idx = (k % 2) + (r >= 8 ? 2 : 0) + (k >= 8 ? 4 : 0);
        return;
    case MMA_M16N8K8:
        if (m->at == MMA_T_TF32) {   /* a0: (g, t) a1: (g+8, t) a2: (g, t+4) a3: (g+8, t+4) */
            *lane = (r % 8) * 4 + k % 4;
            *idx = (r >= 8) + (k >= 4 ? 2 : 0);
        } else {
            *lane = (r % 8) * 4 + k / 2;
            *idx = (k % 2) + (r >= 8 ? 2 : 0);
        }
        return;
    case MMA_M8N8K4:
        *lane = r * 4 + k;
        *idx = 0;
        return;
    case MMA_M16N8K32:      /* a0..a15: rows g (i<4, 8<=i<12), g+8; cols 4t+(i&3), +16 for i >= 8 */
        *lane = (r % 8) * 4 + (k % 16) / 4;
        *idx = (k % 4) + (r >= 8 ? 4 : 0) + (k >= 16 ? 8 : 0);
        return;
    default: {              /* wmma: row-major */
        int M, N, K;
        dims(m->shape, &M, &N, &K);
        int e = r * K + k, per = M * K / 32;
        *lane = e / per;
        *idx = e % per;
        return;
    }
    }
}

static void frag_b(const mma_desc *m, int k, int c, int *lane, int *idx)
{
    switch (m->shape) {
    case MMA_M16N8K16:      /* b0..b3: rows 2t+(i&1), +8 for i >= 2; col g */
        *lane = c * 4 + (k % 8) / 2;
        *idx = (k % 2) + (k >= 8 ? 2 : 0);
        return;
    case MMA_M16N8K8:
        if (m->bt == MMA_T_TF32) { *lane = c * 4 + k % 4; *idx = k >= 4; }
        else { *lane = c * 4 + k / 2; *idx = k % 2; }
        return;
    case MMA_M8N8K4:
        *lane = c * 4 + k;
        *idx = 0;
        return;
    case MMA_M16N8K32:      /* b0..b7: rows 4t+(i&3), +16 for i >= 4; col g */
        *lane = c * 4 + (k % 16) / 4;
        *idx = (k % 4) + (k >= 16 ? 4 : 0);
        return;
    default: {              /* wmma: row-major */
        int M, N, K;
        dims(m->shape, &M, &N, &K);
        int e = k * N + c, per = K * N / 32;
        *lane = e / per;
        *idx = e % per;
        return;
    }
    }
}

static void frag_c(const mma_desc *m, int r, int c, int *lane, int *idx)
{
    switch (m->shape) {
    case MMA_M8N8K4:        /* c0, c1: row g, cols 2t, 2t+1 */
        *lane = r * 4 + c / 2;
        *idx = c % 2;
        return;
    case MMA_M16N16K16: case MMA_M16N16K8: {   /* wmma: row-major */
        int e = r * 16 + c;
        *lane = e / 8;
        *idx = e % 8;
        return;
    }
    default:                /* c0..c3: rows g (i<2), g+8; cols 2t+(i&1) */
        *lane = (r % 8) * 4 + c / 2;
        *idx = (c % 2) + (r >= 8 ? 2 : 0);
        return;
    }
}

/* ---- arithmetic --------------------------------------------------------------- */

/* A finite value m * 2^e with a sign; cls 0 finite, 1 inf, 2 NaN; n is the exponent
 * field's weight (the unbiased exponent, 1 - bias for subnormals and zeros; for a
 * product the sum of its factors', whose significand product lies in [0, 4)). */
typedef struct term { int s, cls; uint64_t m; int e, n; } term;

static term dec(uint64_t bits, int t)
{
    term x = { 0, 0, 0, 0, 0 };
    uint32_t ex, fr;
    switch (t) {
    case MMA_T_F16:
        x.s = (int)(bits >> 15) & 1; ex = (bits >> 10) & 31; fr = bits & 0x3ff;
        if (ex == 31) { x.cls = fr ? 2 : 1; return x; }
        x.m = ex ? fr | 0x400 : fr; x.e = ex ? (int)ex - 25 : -24; x.n = x.e + 10;
        return x;
    case MMA_T_BF16:
        x.s = (int)(bits >> 15) & 1; ex = (bits >> 7) & 255; fr = bits & 0x7f;
        if (ex == 255) { x.cls = fr ? 2 : 1; return x; }
        x.m = ex ? fr | 0x80 : fr; x.e = ex ? (int)ex - 134 : -133; x.n = x.e + 7;
        return x;
    case MMA_T_TF32: {
        uint32_t b = (uint32_t)bits;
        if (MD.tf32_rn && ((b >> 23) & 255) != 255) {
            uint32_t low = b & 0x1fff, r = b & ~0x1fffu;
            if (low > 0x1000 || (low == 0x1000 && (r & 0x2000))) r += 0x2000;
            b = r;
        }
        x.s = (int)(b >> 31); ex = (b >> 23) & 255; fr = (b >> 13) & 0x3ff;
        if (ex == 255) { x.cls = fr ? 2 : 1; return x; }   /* the low 13 bits are not read: 0x7f80_1fff is inf */
        x.m = ex ? fr | 0x400 : fr; x.e = ex ? (int)ex - 137 : -136; x.n = x.e + 10;
        return x;
    }
    default:                /* f32 */
        x.s = (int)(bits >> 31) & 1; ex = (bits >> 23) & 255; fr = bits & 0x7fffff;
        if (ex == 255) { x.cls = fr ? 2 : 1; return x; }
        if (!ex && MD.ftz_c) fr = 0;
        x.m = ex ? fr | 0x800000 : fr; x.e = ex ? (int)ex - 150 : -149; x.n = x.e + 23;
        return x;
    }
}

static double f64v(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t f64b(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static int msb64(uint64_t v) { return 63 - __builtin_clzll(v); }

static uint32_t f32_of(double d, int rz)
{
    float f = (float)d;
    if (rz && !isinf(f) && fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);   /* overflow: inf (as an H200 does) */
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* The accumulator (f32 bits) plus n exact products, summed the tensor-core way; the
 * sum comes back as f32 bits, or, with f16out, rounded once to f16 (to nearest). */
static uint32_t block_sum(uint32_t acc, const term *p, int n, int f16out)
{
    term t[40];
    int nt = 0;
    t[nt++] = dec(acc, MMA_T_F32);
    for (int i = 0; i < n; i++) t[nt++] = p[i];
    int emax = INT32_MIN, allneg = 1;
    for (int i = 0; i < nt; i++) {
        if (!t[i].s) allneg = 0;
        if (t[i].m) { int top = MD.nominal ? t[i].n : t[i].e + msb64(t[i].m); if (top > emax) emax = top; }
    }
    if (emax == INT32_MIN) return allneg && MD.negzero ? (f16out ? 0x8000u : 0x80000000u) : 0;
    int lo = emax - MD.pbits;
    int64_t S = 0;
    for (int i = 0; i < nt; i++) {
        if (!t[i].m) continue;
        uint64_t v;
        int sh = t[i].e - lo, lost = 0;
        if (sh >= 0) v = t[i].m << sh;
        else if (-sh >= 64) { v = 0; lost = 1; }
        else { v = t[i].m >> -sh; lost = (t[i].m & ((1ull << -sh) - 1)) != 0; }
        if (t[i].s && lost && MD.floor_neg) v++;
        S += t[i].s ? -(int64_t)v : (int64_t)v;
    }
    if (S == 0) return 0;
    double sum = ldexp((double)S, lo);          /* exact: |S| < 2^(pbits + 7) */
    if (f16out) return (uint32_t)fp_cvt_f2f(f64b(sum), FP_F64, FP_F16, MD.f16_rz ? FP_RZ : FP_RN, 0);
    return f32_of(sum, MD.rz);
}

/* d = c + sum_k a[k] b[k] with an f32 accumulator (f32 bits back; f16 bits with f16out),
 * the products taken blk at a time. */
static uint32_t dot_f32(uint32_t c, const uint64_t *a, const uint64_t *b, int K, int at, int bt, int f16out, int blk)
{
    term p[32];
    int nan = 0, pinf = 0, ninf = 0;
    term tc = dec(c, MMA_T_F32);
    if (tc.cls == 2) nan = 1;
    else if (tc.cls == 1) { if (tc.s) ninf = 1; else pinf = 1; }
    for (int k = 0; k < K; k++) {
        term x = dec(a[k], at), y = dec(b[k], bt);
        if (x.cls == 2 || y.cls == 2) { nan = 1; continue; }
        if (x.cls == 1 || y.cls == 1) {
            if ((x.cls != 1 && !x.m) || (y.cls != 1 && !y.m)) { nan = 1; continue; }
            if (x.s ^ y.s) ninf = 1; else pinf = 1;
            continue;
        }
        p[k].s = x.s ^ y.s; p[k].cls = 0; p[k].m = x.m * y.m; p[k].e = x.e + y.e; p[k].n = x.n + y.n;
    }
    uint32_t r = 0;
    if (nan || (pinf && ninf)) r = 0x7fffffffu;
    else if (pinf) r = 0x7f800000u;
    else if (ninf) r = 0xff800000u;
    if (r) return f16out ? (uint32_t)fp_cvt_f2f(r, FP_F32, FP_F16, FP_RN, 0) : r;
    uint32_t acc = c;
    for (int k0 = 0; k0 < K; k0 += blk) {
        int n = K - k0 < blk ? K - k0 : blk;
        acc = block_sum(acc, p + k0, n, f16out && k0 + n == K);
    }
    return acc;
}

/* One IEEE fma step: a NaN operand comes back quieted (the accumulator first, when
 * the order MD.nan_c_first), an invalid operation gives the default NaN 0xfff8000000000000. */
static uint64_t fma64(uint64_t a, uint64_t b, uint64_t c)
{
    static const uint8_t ord[6][3] = { {0,1,2}, {2,0,1}, {2,1,0}, {1,0,2}, {1,2,0}, {0,2,1} };
    uint64_t in[3] = { a, b, c }, o[3];
    for (int i = 0; i < 3; i++) o[i] = in[ord[MD.nan_c_first][i]];
    for (int i = 0; i < 3; i++)
        if ((o[i] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return o[i] | 0x0008000000000000ull;
    double r = fma(f64v(a), f64v(b), f64v(c));
    return r != r ? 0xfff8000000000000ull : f64b(r);
}

void mma_compute(const mma_desc *m, uint64_t a[32][8], uint64_t b[32][8], uint64_t c[32][8], uint64_t d[32][8])
{
    int M, N, K;
    dims(m->shape, &M, &N, &K);
    int ab = tbits(m->at), bb = tbits(m->bt), cb = tbits(m->ct), db = tbits(m->dt);
    /* wmma m16n16k8 (tf32) sums its products four at a time, each step rounded (measured:
     * tests/vm/cases/wmma_types), where mma.sync m16n8k8 sums all eight at once */
    int blk = m->shape == MMA_M16N16K8 ? 4 : K < MD.block ? K : MD.block;
    uint64_t A[16][32], B[32][16];
    for (int r = 0; r < M; r++)
        for (int k = 0; k < K; k++) {
            int l, i;
            frag_a(m, r, k, &l, &i);
            A[r][k] = get_el(a[l], i, ab);
        }
    for (int k = 0; k < K; k++)
        for (int cc = 0; cc < N; cc++) {
            int l, i;
            frag_b(m, k, cc, &l, &i);
            B[k][cc] = get_el(b[l], i, bb);
        }
    for (int r = 0; r < M; r++)
        for (int cc = 0; cc < N; cc++) {
            int l, i;
            frag_c(m, r, cc, &l, &i);
            uint64_t cv = get_el(c[l], i, cb), res;
            uint64_t bcol[32];
            for (int k = 0; k < K; k++) bcol[k] = B[k][cc];
            switch (m->at) {
            case MMA_T_F64: {
                uint64_t acc = cv;
                for (int k = 0; k < K; k++) acc = fma64(A[r][k], bcol[k], acc);
                res = acc;
                break;
            }
            case MMA_T_S8: case MMA_T_U8: {
                int64_t s = (int32_t)(uint32_t)cv;
                for (int k = 0; k < K; k++) {
                    int64_t x = m->at == MMA_T_S8 ? (int8_t)A[r][k] : (int64_t)A[r][k];
                    int64_t y = m->bt == MMA_T_S8 ? (int8_t)bcol[k] : (int64_t)bcol[k];
                    s += x * y;
                }
                if (m->satfinite) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                res = (uint32_t)s;
                break;
            }
            default:
                if (m->ct == MMA_T_F16) cv = fp_cvt_f2f(cv, FP_F16, FP_F32, FP_RN, 0);
                res = dot_f32((uint32_t)cv, A[r], bcol, K, m->at, m->bt, m->dt == MMA_T_F16, blk);
                break;
            }
            frag_c(m, r, cc, &l, &i);
            put_el(d[l], i, db, res);
        }
}

#ifndef MMA_STANDALONE
/* ---- the collective ------------------------------------------------------------- */

/* The rows and columns of a wmma fragment's matrix (A: M x K, B: K x N, C/D: M x N). */
static void frag_dims(int shape, int frag, int *rows, int *cols)
{
    int M, N, K;
    dims(shape, &M, &N, &K);
    *rows = frag == MMA_FRAG_B ? K : M;
    *cols = frag == MMA_FRAG_A ? K : N;
}

uint64_t mma_wmma_extent(int shape, int frag, int type, int col, uint64_t ldm)
{
    int rows, cols;
    frag_dims(shape, frag, &rows, &cols);
    uint64_t es = (uint64_t)tbits(type) / 8;
    return col ? ((uint64_t)(cols - 1) * ldm + (uint64_t)rows) * es : ((uint64_t)(rows - 1) * ldm + (uint64_t)cols) * es;
}

/* Element e of a wmma fragment (registers regs[slot] of lane e / per, bits each). */
static uint64_t wfrag_get(const uint64_t *R, const uint32_t *regs, int e, int per, int bits)
{
    int lane = e / per, i = e % per, k = bits == 64 ? i : i * bits / 32;
    uint64_t v = R[regs[k] + (uint32_t)lane];
    return bits == 64 ? v : (v >> (i * bits % 32)) & ((1ull << bits) - 1);
}

static void wfrag_put(uint64_t *R, const uint32_t *regs, int e, int per, int bits, uint64_t v)
{
    int lane = e / per, i = e % per, k = bits == 64 ? i : i * bits / 32;
    uint64_t *r = &R[regs[k] + (uint32_t)lane];
    if (bits == 64) { *r = v; return; }
    int sh = i * bits % 32;
    uint64_t msk = ((1ull << bits) - 1) << sh;
    *r = (*r & ~msk) | (v << sh & msk);
}

static uint8_t *row_ptr(vm_launch *L, vm_warp *w, const bc_insn *I, int lane, uint32_t aslot, uint64_t n, int write)
{
    uint64_t a = w->R[aslot + (uint32_t)lane] + (uint64_t)I->imm;
    return vm_xlate(L, L->cur_cta, w, lane, I->m3, a, n, write);
}

void mma_collective(vm_launch *L, vm_warp *w, uint32_t P)
{
    const bc_insn *I = &L->code[w->pc[__builtin_ctz(P)]];
    const uint32_t *ol = &L->m->extra[I->x];
    uint32_t nd = ol[0], na = ol[1], nb = ol[2];
    const uint32_t *ds = ol + 4, *as = ds + nd, *bs = as + na, *cs = bs + nb;
    uint64_t *R = w->R;
    switch (I->op) {
    case OP_LDMATRIX: case OP_STMATRIX: {
        uint16_t Mx[4][8][8];
        int nm = I->m1, tr = I->m2, ld = I->op == OP_LDMATRIX;
        if (!ld)
            for (int i = 0; i < nm; i++)
                for (int t = 0; t < 32; t++) {
                    uint32_t v = (P >> t) & 1 ? (uint32_t)R[bs[i] + (uint32_t)t] : 0;
                    for (int h = 0; h < 2; h++) {
                        int r = tr ? 2 * (t % 4) + h : t / 4, c = tr ? t / 4 : 2 * (t % 4) + h;
                        Mx[i][r][c] = (uint16_t)(v >> (16 * h));
                    }
                }
        for (int i = 0; i < nm; i++)
            for (int r = 0; r < 8; r++) {
                int lane = 8 * i + r;
                uint8_t *p = (P >> lane) & 1 ? row_ptr(L, w, I, lane, as[0], 16, !ld) : NULL;
                if (ld) { if (p) memcpy(Mx[i][r], p, 16); else memset(Mx[i][r], 0, 16); }
                else if (p) memcpy(p, Mx[i][r], 16);
            }
        if (ld)
            for (uint32_t mm = P; mm; mm &= mm - 1) {
                int t = __builtin_ctz(mm);
                for (int i = 0; i < nm; i++) {
                    uint32_t v = 0;
                    for (int h = 0; h < 2; h++) {
                        int r = tr ? 2 * (t % 4) + h : t / 4, c = tr ? t / 4 : 2 * (t % 4) + h;
                        v |= (uint32_t)Mx[i][r][c] << (16 * h);
                    }
                    R[ds[i] + (uint32_t)t] = v;
                }
            }
        break;
    }
    case OP_MOVMATRIX: {
        uint16_t Mx[8][8];
        for (int t = 0; t < 32; t++) {
            uint32_t v = (P >> t) & 1 ? (uint32_t)R[as[0] + (uint32_t)t] : 0;
            Mx[t / 4][2 * (t % 4)] = (uint16_t)v;
            Mx[t / 4][2 * (t % 4) + 1] = (uint16_t)(v >> 16);
        }
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int t = __builtin_ctz(mm);
            R[ds[0] + (uint32_t)t] = Mx[2 * (t % 4)][t / 4] | (uint32_t)Mx[2 * (t % 4) + 1][t / 4] << 16;
        }
        break;
    }
    case OP_MMA: case OP_WMMA_MMA: {
        mma_desc d = { I->m1, I->m2 & 15, I->m2 >> 4, I->m3 & 15, I->m3 >> 4, !!(I->flags & BC_IF_SAT),
                       (int)(I->imm & 1), (int)((I->imm >> 1) & 1) };
        static __thread uint64_t a[32][8], b[32][8], c[32][8], o[32][8];
        memset(a, 0, sizeof a); memset(b, 0, sizeof b); memset(c, 0, sizeof c); memset(o, 0, sizeof o);
        uint32_t nc = ol[3];
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int t = __builtin_ctz(mm);
            for (uint32_t k = 0; k < na && k < 8; k++) a[t][k] = R[as[k] + (uint32_t)t];
            for (uint32_t k = 0; k < nb && k < 8; k++) b[t][k] = R[bs[k] + (uint32_t)t];
            for (uint32_t k = 0; k < nc && k < 8; k++) c[t][k] = R[cs[k] + (uint32_t)t];
        }
        if (I->op == OP_WMMA_MMA) {
            /* fragments hold A and B in their memory order (wmma.load): each element goes
             * where mma_compute reads it (frag_a, frag_b) */
            int M, N, K, ab = tbits(d.at), bb = tbits(d.bt), l, i;
            dims(d.shape, &M, &N, &K);
            static __thread uint64_t ta[32][8], tb[32][8];
            memcpy(ta, a, sizeof ta); memcpy(tb, b, sizeof tb);
            memset(a, 0, sizeof ta); memset(b, 0, sizeof tb);
            for (int r = 0; r < M; r++)
                for (int k = 0; k < K; k++) {
                    int f = d.a_col ? k * M + r : r * K + k, pa = M * K / 32;
                    frag_a(&d, r, k, &l, &i);
                    put_el(a[l], i, ab, get_el(ta[f / pa], f % pa, ab));
                }
            for (int k = 0; k < K; k++)
                for (int cc = 0; cc < N; cc++) {
                    int f = d.b_row ? k * N + cc : cc * K + k, pb = K * N / 32;
                    frag_b(&d, k, cc, &l, &i);
                    put_el(b[l], i, bb, get_el(tb[f / pb], f % pb, bb));
                }
        }
        mma_compute(&d, a, b, c, o);
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int t = __builtin_ctz(mm);
            for (uint32_t k = 0; k < nd; k++) R[ds[k] + (uint32_t)t] = d.dt == MMA_T_F64 ? o[t][k] : (uint32_t)o[t][k];
        }
        break;
    }
    case OP_WMMA_LOAD: case OP_WMMA_STORE: {
        /* the fragment holds A or B in its memory order (row-major for a row layout,
         * column-major for col), C/D row-major: element e of lane e / per is the e-th in
         * that order (per: the matrix's elements / 32) */
        int type = I->m2 & 15, col = I->m2 >> 4, ld = I->op == OP_WMMA_LOAD, frag = I->m1;
        int bits = tbits(type), es = bits / 8, rows, cols;
        frag_dims(I->n, frag, &rows, &cols);
        int per = rows * cols / 32;
        int first = __builtin_ctz(P);
        uint64_t ldm = R[bs[0] + (uint32_t)first] & 0xffffffffu;
        uint8_t *p = row_ptr(L, w, I, first, as[0], mma_wmma_extent(I->n, frag, type, col, ldm), !ld);
        if (!p) break;
        const uint32_t *regs = ld ? ds : ol + 4 + na + nb;
        uint32_t nr = ld ? nd : ol[3];
        /* a/b: line x of the memory layout, position y in it; c/d: row x, column y */
        int lines = frag == MMA_FRAG_C || !col ? rows : cols, len = rows * cols / lines;
        for (int x = 0; x < lines; x++)
            for (int y = 0; y < len; y++) {
                int e = x * len + y;
                if (!((P >> (e / per)) & 1)) continue;
                uint64_t off = (uint64_t)(frag == MMA_FRAG_C && col ? y * ldm + x : x * ldm + y) * (uint64_t)es;
                if (ld) {
                    uint64_t v = 0;
                    memcpy(&v, p + off, (size_t)es);
                    wfrag_put(R, regs, e, per, bits, v);
                } else {
                    uint64_t v = wfrag_get(R, regs, e, per, bits);
                    memcpy(p + off, &v, (size_t)es);
                }
            }
        if (ld && frag != MMA_FRAG_C && type == MMA_T_F16)   /* f16 a/b: registers 4..7 repeat 0..3 */
            for (uint32_t mm = P; mm; mm &= mm - 1) {
                int t = __builtin_ctz(mm);
                for (int k = 4; k < 8 && (uint32_t)k < nr; k++) R[regs[k] + (uint32_t)t] = R[regs[k - 4] + (uint32_t)t];
            }
        break;
    }
    default:
        break;
    }
}
#endif
