/* fused_api.c — the superinstructions (vm/fuse.c) give what the single
 * instructions give.  A launch with an empty vm_hooks (an observer that
 * observes nothing) runs the original code; one without hooks runs the
 * fused code.  Both must end with the same status, faulting pc and lane,
 * lane-instruction count and output, at every turn length (vm_config.slice
 * 1..17: a run of triples cut anywhere by the end of a turn), for:
 *   tests/api/fused.ptx: a run of 4 triples, entered at its start and (by a
 *     branch) at its third triple, on a whole warp and on a partial one,
 *     with one lane's base register moved (so that its 8 lanes' loads are
 *     gathered while the others' are side by side), or 8 lanes on one
 *     address, or every lane's; out of range from the fourth triple on (one
 *     lane, every lane, only the last lane of a side-by-side row), from the
 *     first (below 0), and misaligned (one lane, a side-by-side group of 8):
 *     the fault at the exact pc;
 *   tests/cases/tile_fma and tile_fma_ftz (fma.rn.ftz.f32): the five
 *     variants, against the H200's bytes;
 *   tests/api/fused_bra.ptx: compares and branches (OP_SETP_BRA),
 *     mul.wide + add.s64 pairs (OP_WIDE_ADD) and runs of ALU instructions
 *     (OP_ALU_RUN, each of them) of every form the handlers take,
 *     against a model of the kernel (bra_model) and the unfused code, on
 *     one, one and a half and three warps;
 *   tests/api/fused_copy.ptx: ld.global + st.shared pairs (OP_LDG_STS), side
 *     by side, gathered, reversed, the value dead and live, and either side
 *     out of range in one lane (the fault at the exact pc), against a model;
 *   tests/api/fused_fin.ptx: pairs and triples whose shared rows are final
 *     (checked once a block) and not (set in the loop, with their shape
 *     changing from pass to pass; set where a branch may skip it).
 * Prints PASS/FAIL lines and "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptxemu.h"

typedef struct outcome {
    vm_status st;
    uint32_t pc;
    int lane;
    uint64_t insns;
    uint8_t *out;
    char msg[128];
} outcome;

static int pass, fail;

static void check(int ok, const char *what)
{
    if (ok) pass++;
    else { printf("FAIL %s\n", what); fail++; }
}

/* The largest launch here runs 6.3 M lane-instructions (tile_fma): a handler
 * that mistakes a loop's exit (a wrong compare in OP_SETP_BRA) ends at this
 * limit with VM_LIMIT, a failed check, instead of hanging the test. */
#define LAUNCH_INSN_LIMIT 16000000ull

/* One launch of a kernel whose only output is `out_bytes` at `out`; hooked:
 * through an empty vm_hooks (unfused). */
static outcome launch(ptxemu_device *dev, const ptxemu_module *m, const char *kernel, vm_config cfg, int hooked,
                      uint64_t out, size_t out_bytes)
{
    vm_hooks none;
    memset(&none, 0, sizeof none);
    if (hooked) cfg.hooks = &none;
    cfg.insn_limit = LAUNCH_INSN_LIMIT;
    uint8_t *zero = calloc(1, out_bytes);
    ptxemu_memcpy_htod(dev, out, zero, out_bytes);
    free(zero);
    vm_fault fault;
    memset(&fault, 0, sizeof fault);
    outcome o = { 0 };
    o.st = ptxemu_launch(dev, m, kernel, &cfg, &fault, &o.insns);
    o.pc = fault.pc;
    o.lane = fault.lane;
    snprintf(o.msg, sizeof o.msg, "%.100s", fault.msg);
    free(fault.report);
    o.out = malloc(out_bytes);
    ptxemu_memcpy_dtoh(dev, o.out, out, out_bytes);
    return o;
}

static int same(const outcome *a, const outcome *b, size_t out_bytes)
{
    return a->st == b->st && a->insns == b->insns && !memcmp(a->out, b->out, out_bytes) &&
           (a->st == VM_OK || (a->pc == b->pc && a->lane == b->lane));
}

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(n > 0 ? (size_t)n : 1);
    *len = p && fread(p, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return p;
}

/* A launch of one block of `threads` threads on one host thread. */
static vm_config one_block(int threads, void *params, size_t size)
{
    vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = 1;
    cfg.block[0] = (uint32_t)threads;
    cfg.jobs = 1;
    cfg.params = params;
    cfg.params_size = size;
    return cfg;
}

static const int slices[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17 };
enum { NSLICES = sizeof slices / sizeof slices[0] };

/* Launches kernel fused and unfused at every slice: the two must agree (status, faulting
 * pc and lane, lane-instructions, output), and with ref the fused one must equal ref too.
 * Checks and reports that as one result named name; returns 1 when all agreed. */
static int slices_agree(ptxemu_device *dev, const ptxemu_module *m, const char *kernel, vm_config cfg, uint64_t out,
                        size_t out_bytes, const outcome *ref, const char *name)
{
    char what[256];
    int bad_slices = 0;
    for (int s = 0; s < NSLICES; s++) {
        cfg.slice = slices[s];
        outcome a = launch(dev, m, kernel, cfg, 0, out, out_bytes), b = launch(dev, m, kernel, cfg, 1, out, out_bytes);
        if (!same(&a, &b, out_bytes) || (ref && !same(&a, ref, out_bytes))) {
            printf("  %s, slice %d: fused %s pc %u lane %d, %llu lane-instructions; unfused %s pc %u lane %d, %llu\n", name,
                   slices[s], vm_status_name(a.st), a.pc, a.lane, (unsigned long long)a.insns, vm_status_name(b.st), b.pc,
                   b.lane, (unsigned long long)b.insns);
            bad_slices++;
        }
        free(a.out);
        free(b.out);
    }
    snprintf(what, sizeof what, "%s: fused and unfused the same at %d turn lengths (%d differ)", name, NSLICES, bad_slices);
    check(!bad_slices, what);
    return !bad_slices;
}

/* One launch of fused.ptx: lanes bad..bad+nbad-1 skewed, lanes flat..flat+7 on one address;
 * fault_line > 0: the unfused run faults there in fault_lane; < 0: no fault, no formula;
 * 0: out[t] = 1 + 7t (6t entered at the third triple). */
typedef struct fused_run {
    int threads, entry;
    uint32_t bad, nbad, skew, flat;
    int fault_line, fault_lane;
    const char *name;
} fused_run;
enum { NO_FLAT = 1000 };            /* flat for no lane */

/* fused.ptx at every slice: same as unfused; with the hooked run at the
 * default slice, the expected values or fault. */
static void run_fused_ptx(ptxemu_device *dev, const ptxemu_module *m, const fused_run *r)
{
    enum { MAXT = 64 };
    uint64_t out = ptxemu_malloc(dev, MAXT * 4);
    struct { uint64_t out; uint32_t bad, skew, entry, nbad, flat; } p = { out, r->bad, r->skew, (uint32_t)r->entry, r->nbad, r->flat };
    vm_config cfg = one_block(r->threads, &p, sizeof p);
    char what[256];
    outcome ref = launch(dev, m, "fused", cfg, 1, out, MAXT * 4);
    if (r->fault_line > 0) {
        const bc_module *bm = m->bc;
        int line = ref.st == VM_FAULT && ref.pc < bm->ncode ? bm->code[ref.pc].line : -1;
        snprintf(what, sizeof what, "%s: unfused, a fault at ptx line %d in lane %d (got %s at line %d, lane %d: %s)", r->name,
                 r->fault_line, r->fault_lane, vm_status_name(ref.st), line, ref.lane, ref.msg);
        check(ref.st == VM_FAULT && line == r->fault_line && ref.lane == r->fault_lane, what);
    } else if (r->fault_line < 0) {          /* no formula: only fused = unfused below */
        snprintf(what, sizeof what, "%s: unfused, no fault (%s %s)", r->name, vm_status_name(ref.st), ref.msg);
        check(ref.st == VM_OK, what);
    } else {
        int ok = ref.st == VM_OK;
        const float *v = (const float *)ref.out;
        for (int t = 0; t < r->threads && ok; t++) ok = v[t] == 1.0f + (r->entry ? 6.0f : 7.0f) * (float)t;
        snprintf(what, sizeof what, "%s: unfused, out[t] = 1 + %dt (%s %s)", r->name, r->entry ? 6 : 7, vm_status_name(ref.st),
                 ref.msg);
        check(ok, what);
    }
    if (slices_agree(dev, m, "fused", cfg, out, MAXT * 4, &ref, r->name)) printf("PASS %s\n", r->name);
    free(ref.out);
    ptxemu_free(dev, out);
}

static void run_tile_fma(ptxemu_device *dev, const char *name)
{
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0, la = 0, lb = 0, lp = 0, le = 0;
    char path[256], what[200];
    snprintf(path, sizeof path, "tests/cases/%s/%s.ptx", name, name);
    ptxemu_module *m = ptxemu_load(path, &d, &text, &len);
    snprintf(path, sizeof path, "tests/cases/%s/expect/C.bin", name);
    void *a = read_file("tests/cases/tile_fma/a.bin", &la), *b = read_file("tests/cases/tile_fma/b.bin", &lb);
    void *perm = read_file("tests/cases/tile_fma/perm.bin", &lp), *expect = read_file(path, &le);
    if (!m || !la || !lb || !lp || !le) {
        snprintf(what, sizeof what, "%s: load the module and its files", name);
        check(0, what);
        goto done;
    }
    uint64_t da = ptxemu_malloc(dev, la), db = ptxemu_malloc(dev, lb), dp = ptxemu_malloc(dev, lp), dc = ptxemu_malloc(dev, le);
    ptxemu_memcpy_htod(dev, da, a, la);
    ptxemu_memcpy_htod(dev, db, b, lb);
    ptxemu_memcpy_htod(dev, dp, perm, lp);
    uint64_t p[4] = { da, db, dp, dc };
    vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = 16;
    cfg.grid[1] = 5;
    cfg.block[0] = 16;
    cfg.block[1] = 16;
    cfg.jobs = 1;
    cfg.params = p;
    cfg.params_size = sizeof p;
    outcome ref = launch(dev, m, "tile_fma", cfg, 1, dc, le);
    snprintf(what, sizeof what, "%s: unfused, the H200's bytes", name);
    check(ref.st == VM_OK && !memcmp(ref.out, expect, le), what);
    int bad_slices = 0;
    for (int s = 0; s < NSLICES; s++) {
        cfg.slice = slices[s];
        outcome f = launch(dev, m, "tile_fma", cfg, 0, dc, le);
        if (f.st != VM_OK || memcmp(f.out, expect, le) || f.insns != ref.insns) {
            printf("  %s, slice %d: %s, %s the H200's bytes, %llu lane-instructions (unfused %llu)\n", name, slices[s],
                   vm_status_name(f.st), memcmp(f.out, expect, le) ? "not" : "", (unsigned long long)f.insns,
                   (unsigned long long)ref.insns);
            bad_slices++;
        }
        free(f.out);
    }
    snprintf(what, sizeof what, "%s: fused, the H200's bytes and the unfused count at %d turn lengths (%d differ)", name,
             NSLICES, bad_slices);
    check(!bad_slices, what);
    if (!bad_slices) printf("PASS %s fused at %d turn lengths\n", name, NSLICES);
    free(ref.out);
done:
    free(a); free(b); free(perm); free(expect);
    ptxemu_module_free(m);
    free(text);
    diag_list_free(&d);
}

/* fused_bra.ptx's out[tid], computed here as its comments say. */
static uint32_t bra_model(uint32_t tid, uint32_t flip)
{
    int32_t x = (int32_t)(((uint32_t)(7 * tid) - 100) ^ flip), y = (int32_t)((50 - 3 * tid) ^ flip);
    uint32_t acc = 17;
    int64_t rd1 = (int64_t)((uint64_t)(int64_t)x * 3000000000ull), rd2 = (int64_t)((uint64_t)(int64_t)y << 33);
    int p1 = x < y;                                            /* A */
    if (!p1) acc += 1000;
    acc = acc * 31 + (p1 ? 3 : 5);
    float f2 = 1.0f;                                           /* B */
    if (x >= 5) { f2 += f2; acc += 7; }
    acc = acc * 31 + (uint32_t)(int32_t)f2;
    float f3 = (y >= -20 || x >= 40) ? 2.0f : 3.0f;            /* C */
    acc = acc * 31 + (uint32_t)(int32_t)f3;
    int p6 = (uint32_t)x < (uint32_t)y, p7 = x != -2, p8 = p6 && p7;   /* D */
    uint32_t r8 = tid + (p8 ? 0 : 100);
    acc = acc * 31 + (uint32_t)(p6 + 2 * p7 + 4 * p8) + r8;
    int p9 = rd1 == rd2, p10 = (uint64_t)rd1 > (uint64_t)rd2;  /* E */
    uint64_t rd3 = (uint64_t)rd1 + (p9 ^ p10 ? (uint64_t)rd2 : 0);
    acc = acc * 31 + ((uint32_t)rd3 ^ (uint32_t)(rd3 >> 32));
    int p12 = rd1 <= rd2;                                      /* F */
    if (!p12) acc += 11;
    if (!(rd1 > 0 || tid <= 9)) acc += 13;
    if (!((uint64_t)rd2 >= (uint64_t)rd1)) acc += 17;
    acc = acc * 31 + (p12 ? 19 : 23);
    if (tid & 1) {                                             /* G */
        int p18 = x > y;
        acc = acc * 31 + tid + (p18 ? 0 : 64) + (p18 ? 8 : 9);
    }
    uint32_t i = 0, n = tid % 5 + 1;                           /* H */
    do acc = acc * 3 + i++; while (i < n);
    acc = acc * 31 + (x > y ? 77u : (tid + 3) * (uint32_t)x);  /* M */
    acc = acc * 31 + (x < 0 ? tid : (tid + (uint32_t)y) * 5);  /* N */
    acc = acc * 31 + 2 * tid + (uint32_t)x;                     /* O */
    uint32_t r20 = acc + ((y < 0 && tid <= 20) ? 2 : 1);       /* I */
    acc = r20 * 31 + 1;
    uint16_t h1 = (uint16_t)x, h2 = (uint16_t)(h1 + 300), h3 = (uint16_t)(h2 * h1 + 7), h4 = (uint16_t)(h3 >> 3);   /* R */
    uint32_t r26 = (uint32_t)h4 + (uint32_t)y - (uint32_t)x, r28 = r26 * (uint32_t)y * 3 + r26;
    uint32_t r33 = ~(((r28 & 0xf0f0f0ffu) | tid) ^ acc), r35 = (r33 << 3) >> 5, r36 = (uint32_t)((int32_t)r33 >> 7);
    uint64_t rd11 = ((uint64_t)r35 << 29) + ((uint64_t)rd1 >> 13) - (uint64_t)rd2;
    acc = acc * 31 + ((r36 ^ r35) + (uint32_t)rd11 + 5);
    uint64_t rd8 = (uint64_t)((int64_t)x * -12), rd10 = rd8 + (uint64_t)rd1 + rd8 + (uint64_t)((int64_t)y * -5);   /* W */
    if (tid & 1) rd10 += (uint64_t)(uint32_t)y * 3;
    return acc * 31 + ((uint32_t)rd10 ^ (uint32_t)(rd10 >> 32));
}

/* fused_bra.ptx with `threads` threads in one block: the model's values unfused, and
 * fused = unfused (status, lane-instructions, output) at every slice, each slice's pair of
 * launches with the other flip than the last pair's (see fused_bra.ptx). */
static void run_fused_bra(ptxemu_device *dev, const ptxemu_module *m, int threads, const char *name)
{
    enum { MAXT = 96 };
    uint64_t out = ptxemu_malloc(dev, MAXT * 4);
    struct { uint64_t out; uint32_t flip, pad; } p = { out, 0, 0 };
    vm_config cfg = one_block(threads, &p, sizeof p);
    char what[256];
    int bad_model = 0, bad_slices = 0;
    for (int s = 0; s < NSLICES; s++) {
        cfg.slice = slices[s];
        p.flip = s & 1 ? ~0u : 0;
        outcome a = launch(dev, m, "fused_bra", cfg, 0, out, MAXT * 4), ref = launch(dev, m, "fused_bra", cfg, 1, out, MAXT * 4);
        const uint32_t *v = (const uint32_t *)ref.out;
        int t = 0;
        while (t < threads && v[t] == bra_model((uint32_t)t, p.flip)) t++;
        if (ref.st != VM_OK || t < threads) {
            printf("  %s, slice %d: unfused %s, thread %d: %u, the model %u\n", name, slices[s], vm_status_name(ref.st), t,
                   t < threads ? v[t] : 0, t < threads ? bra_model((uint32_t)t, p.flip) : 0);
            bad_model++;
        }
        if (!same(&a, &ref, MAXT * 4)) {
            printf("  %s, slice %d: fused %s, %llu lane-instructions; unfused %s, %llu\n", name, slices[s],
                   vm_status_name(a.st), (unsigned long long)a.insns, vm_status_name(ref.st), (unsigned long long)ref.insns);
            bad_slices++;
        }
        free(a.out);
        free(ref.out);
    }
    snprintf(what, sizeof what, "%s: unfused, the model's values at %d turn lengths (%d differ)", name, NSLICES, bad_model);
    check(!bad_model, what);
    snprintf(what, sizeof what, "%s: fused and unfused the same at %d turn lengths (%d differ)", name, NSLICES, bad_slices);
    check(!bad_slices, what);
    if (!bad_slices && !bad_model) printf("PASS %s\n", name);
    ptxemu_free(dev, out);
}

/* fused_copy.ptx's out[] for `threads` threads and `mode` without its fault bits. */
static void copy_model(const uint32_t *src, int threads, uint32_t mode, uint32_t *out)
{
    uint32_t sh[128] = { 0 };
    for (int t = 0; t < threads; t++) {          /* lanes and warps store in ascending order */
        uint32_t gi = mode & 1 ? (uint32_t)(7 * t) & 63 : (uint32_t)t, si = mode & 2 ? (uint32_t)(threads - 1 - t) : (uint32_t)t;
        sh[si] = src[gi];
        sh[si + 64] = src[gi + 64];
    }
    for (int t = 0; t < threads; t++) {
        uint32_t gi = mode & 1 ? (uint32_t)(7 * t) & 63 : (uint32_t)t;
        out[t] = sh[t] + sh[t + 64] + src[gi + 64] + src[0];
    }
}

/* fused_copy.ptx: unfused, the model's values or the fault at PTX line want_fault_line in
 * thread bad; fused = unfused (status, faulting pc and lane, lane-instructions, output) at
 * every slice. */
static void run_fused_copy(ptxemu_device *dev, const ptxemu_module *m, int threads, uint32_t mode, int bad,
                           int want_fault_line, const char *name)
{
    enum { MAXT = 64 };
    uint32_t src[128], model[MAXT];
    for (int i = 0; i < 128; i++) src[i] = (uint32_t)i * 2654435761u;
    uint64_t dsrc = ptxemu_malloc(dev, sizeof src), out = ptxemu_malloc(dev, MAXT * 4);
    ptxemu_memcpy_htod(dev, dsrc, src, sizeof src);
    struct { uint64_t src, out; uint32_t mode, bad; } p = { dsrc, out, mode, (uint32_t)bad };
    vm_config cfg = one_block(threads, &p, sizeof p);
    char what[256];
    outcome ref = launch(dev, m, "fused_copy", cfg, 1, out, MAXT * 4);
    if (want_fault_line) {
        const bc_module *bm = m->bc;
        int line = ref.st == VM_FAULT && ref.pc < bm->ncode ? bm->code[ref.pc].line : -1;
        snprintf(what, sizeof what, "%s: unfused, a fault at ptx line %d in lane %d (got %s at line %d, lane %d: %s)", name,
                 want_fault_line, bad, vm_status_name(ref.st), line, ref.lane, ref.msg);
        check(ref.st == VM_FAULT && line == want_fault_line && ref.lane == bad % BC_WARP, what);
    } else {
        copy_model(src, threads, mode, model);
        snprintf(what, sizeof what, "%s: unfused, the model's values (%s %s)", name, vm_status_name(ref.st), ref.msg);
        check(ref.st == VM_OK && !memcmp(ref.out, model, (size_t)threads * 4), what);
    }
    /* a fault in the second warp comes after as many of the first warp's instructions as the
     * turns let it run: the count depends on the slice, so only fused = unfused per slice */
    if (slices_agree(dev, m, "fused_copy", cfg, out, MAXT * 4, want_fault_line ? NULL : &ref, name)) printf("PASS %s\n", name);
    free(ref.out);
    ptxemu_free(dev, out);
    ptxemu_free(dev, dsrc);
}

/* fused_fin.ptx's kernel: the superinstructions whose rows are final there number want_fin
 * (bc_fuse_head.fin, OP_LDG_STS's m2: the shared rows checked once a block; bc_fuse_bra.fin1/2:
 * the compare's lanes computed once), and fused = unfused at every slice, where a row set inside
 * the loop changes its shape from pass to pass. */
static void run_fin(ptxemu_device *dev, const ptxemu_module *m, const char *kernel, int want_fin)
{
    enum { T = 64, N = 256 };
    const bc_module *bm = m->bc;
    int k = bc_find_func(bm, kernel), fin = 0;
    for (uint32_t pc = k >= 0 ? bm->funcs[k].pc_begin : 0; k >= 0 && pc < bm->funcs[k].pc_end; pc++)
        fin += bc_fuse_cached(bm, pc);
    char what[160];
    snprintf(what, sizeof what, "fused_fin.ptx %s: %d superinstructions with final rows (want %d)", kernel, fin, want_fin);
    check(fin == want_fin, what);
    float src[N];
    for (int i = 0; i < N; i++) src[i] = (float)(i % 17) * 0.25f + (float)(i / 64);
    uint64_t dsrc = ptxemu_malloc(dev, sizeof src), out = ptxemu_malloc(dev, T * 4);
    ptxemu_memcpy_htod(dev, dsrc, src, sizeof src);
    struct { uint64_t src, out; } p = { dsrc, out };
    vm_config cfg = one_block(T, &p, sizeof p);
    outcome ref = launch(dev, m, kernel, cfg, 1, out, T * 4);
    snprintf(what, sizeof what, "fused_fin.ptx %s", kernel);
    if (ref.st != VM_OK) check(0, what);
    else if (slices_agree(dev, m, kernel, cfg, out, T * 4, &ref, what)) printf("PASS %s\n", what);
    free(ref.out);
    ptxemu_free(dev, out);
    ptxemu_free(dev, dsrc);
}

int main(void)
{
    diag_list d;
    diag_init(&d);
    char *text = NULL, *text2 = NULL;
    size_t len = 0, len2 = 0;
    ptxemu_module *m = ptxemu_load("tests/api/fused.ptx", &d, &text, &len);
    if (!m) { diag_render(&d, text, len, stderr); printf("FAIL load\n0 passed, 1 failed\n"); return 1; }
    const bc_module *bm = m->bc;
    int fused = 0;
    for (uint32_t pc = 0; bm->fused && pc < bm->ncode; pc++) fused += bm->fused[pc].op == OP_LDS_FMA;
    check(fused == 4, "fused.ptx: four triples marked");
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    /* lines of fused.ptx: 47 the first triple's second load, 57 the fourth's (at sh + 4 lane + 768:
     * a skew of 132 puts lane 31 past the end, 300 every lane) */
    static const fused_run runs[] = {
        { 32, 0, -1u, 1, 0, NO_FLAT, 0, 0, "whole warp" },
        { 32, 1, -1u, 1, 0, NO_FLAT, 0, 0, "whole warp, entered at the third triple" },
        { 48, 0, -1u, 1, 0, NO_FLAT, 0, 0, "a warp and a partial one" },
        { 32, 0, 5, 1, 300, NO_FLAT, 57, 5, "lane 5 out of range from the fourth triple" },
        { 32, 1, 5, 1, 300, NO_FLAT, 57, 5, "the same, entered at the third triple" },
        { 32, 0, 0, 32, 300, NO_FLAT, 57, 0, "every lane out of range from the fourth triple" },
        { 32, 1, 0, 32, 300, NO_FLAT, 57, 0, "every lane, entered at the third triple" },
        { 32, 0, 0, 32, 132, NO_FLAT, 57, 31, "lane 31 past the end, every lane side by side" },
        { 32, 0, 0, 32, -4u, NO_FLAT, 47, 0, "every lane below the shared window" },
        { 32, 0, 8, 8, 2, NO_FLAT, 47, 8, "lanes 8-15 misaligned, side by side" },
        { 32, 0, 5, 1, 8, NO_FLAT, -1, 0, "lanes 0-7 gathered, the others side by side" },
        { 48, 1, 17, 1, 8, NO_FLAT, -1, 0, "lanes 16-23 gathered, entered at the third triple" },
        { 32, 0, -1u, 1, 0, 0, -1, 0, "lanes 0-7 on one address, the others side by side" },
        { 32, 0, -1u, 1, 0, 8, -1, 0, "lanes 8-15 on one address, the others side by side" },
        { 32, 1, -1u, 1, 0, 24, -1, 0, "lanes 24-31 on one address, entered at the third triple" },
        { 32, 0, 9, 1, -40u, NO_FLAT, 47, 9, "lane 9 below the shared window" },
        { 32, 0, 3, 1, 2, NO_FLAT, 47, 3, "lane 3 misaligned" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) run_fused_ptx(&dev, m, &runs[i]);
    ptxemu_module *mb = ptxemu_load("tests/api/fused_bra.ptx", &d, &text2, &len2);
    if (!mb) { diag_render(&d, text2, len2, stderr); check(0, "load fused_bra.ptx"); }
    else {
        int heads = 0;
        for (uint32_t pc = 0; mb->bc->fused && pc < mb->bc->ncode; pc++) heads += mb->bc->fused[pc].op == OP_SETP_BRA;
        int wide = 0;
        for (uint32_t pc = 0; mb->bc->fused && pc < mb->bc->ncode; pc++) wide += mb->bc->fused[pc].op == OP_WIDE_ADD;
        check(heads == 16, "fused_bra.ptx: sixteen compares and branches marked");
        /* fused_bra.ptx's lines: 58 C's compare (the fall-through sets f3 again), 144 M's, 153 N's, 162 and 167 O's */
        int fall = 0, other = 0;
        for (uint32_t pc = 0; mb->bc->fused && pc < mb->bc->ncode; pc++)
            if (mb->bc->fused[pc].op == OP_SETP_BRA && (mb->bc->fuse_bras[mb->bc->fused[pc].x].dead & BC_FUSE_MD_FALL)) {
                int line = mb->bc->code[pc].line;
                if (line == 58 || line == 144 || line == 162 || line == 167) fall++;
                else other++, printf("  MD_FALL at line %d\n", line);
            }
        check(fall == 4 && !other, "fused_bra.ptx: the movs of C, M and O taken only by the lanes that branch, no other");
        check(wide == 4, "fused_bra.ptx: four mul.wide + add.s64 pairs marked");
        int alu = 0;
        for (uint32_t pc = 0; mb->bc->fused && pc < mb->bc->ncode; pc++)
            if (mb->bc->fused[pc].op == OP_ALU_RUN && mb->bc->fused[pc].b >= 24) alu |= 1 << (mb->bc->fused[pc].b - 24);
        check(alu == 0x11, "fused_bra.ptx: the run of every ALU instruction marked (heads 28 and 24 from its end)");
        run_fused_bra(&dev, mb, 32, "compare and branch, a whole warp");
        run_fused_bra(&dev, mb, 48, "compare and branch, a warp and a partial one");
        run_fused_bra(&dev, mb, 96, "compare and branch, three warps");
        ptxemu_module_free(mb);
    }
    free(text2);
    char *text3 = NULL;
    size_t len3 = 0;
    ptxemu_module *mc = ptxemu_load("tests/api/fused_copy.ptx", &d, &text3, &len3);
    if (!mc) { diag_render(&d, text3, len3, stderr); check(0, "load fused_copy.ptx"); }
    else {
        uint32_t dead = 0, pairs = 0;
        for (uint32_t pc = 0; mc->bc->fused && pc < mc->bc->ncode; pc++)
            if (mc->bc->fused[pc].op == OP_LDG_STS) dead |= (mc->bc->fused[pc].b != 0) << pairs++;
        check(pairs == 2 && dead == 1, "fused_copy.ptx: two pairs marked, the first one's value dead");
        /* fused_copy.ptx's lines: 63 the first pair's load, 64 its store */
        run_fused_copy(&dev, mc, 32, 0, -1, 0, "global to shared, side by side");
        run_fused_copy(&dev, mc, 64, 1, -1, 0, "global to shared, the loads gathered");
        run_fused_copy(&dev, mc, 64, 2, -1, 0, "global to shared, the stores reversed");
        run_fused_copy(&dev, mc, 48, 3, -1, 0, "global to shared, both, a partial warp");
        run_fused_copy(&dev, mc, 32, 4, 5, 64, "global to shared, lane 5's load out of range");
        run_fused_copy(&dev, mc, 64, 8, 41, 65, "global to shared, lane 41's store out of range");
        run_fused_copy(&dev, mc, 32, 16, 28, 64, "global to shared, lanes 28-31 past the end, side by side");
        run_fused_copy(&dev, mc, 32, 16, 31, 64, "global to shared, lane 31 past the end, side by side");
        ptxemu_module_free(mc);
    }
    free(text3);
    char *text4 = NULL;
    size_t len4 = 0;
    ptxemu_module *mf = ptxemu_load("tests/api/fused_fin.ptx", &d, &text4, &len4);
    if (!mf) { diag_render(&d, text4, len4, stderr); check(0, "load fused_fin.ptx"); }
    else {
        run_fin(&dev, mf, "fin_copy", 1);
        run_fin(&dev, mf, "fin_copy_loop", 0);     /* the store's row set in the loop */
        run_fin(&dev, mf, "fin_copy_branch", 1);   /* the pair's row set where a branch may skip it: only the
                                                   * compare of %ctaid before it */
        run_fin(&dev, mf, "fin_fma", 4);           /* two pairs filling sh[], two heads of triples */
        run_fin(&dev, mf, "fin_fma_loop", 2);      /* the pairs only: base A set in the loop */
        run_fin(&dev, mf, "fin_cmp", 1);           /* the compare of tid & 7, not those of the counter */
        ptxemu_module_free(mf);
    }
    free(text4);
    run_tile_fma(&dev, "tile_fma");
    run_tile_fma(&dev, "tile_fma_ftz");
    ptxemu_device_destroy(&dev);
    ptxemu_module_free(m);
    free(text);
    diag_list_free(&d);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
