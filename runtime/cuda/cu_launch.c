/* cu_launch.c — kernel launches, streams, events and occupancy (cu.h).
 *
 * A launch runs the whole grid before it returns (streams are therefore
 * trivially ordered).  Its device printf output is kept until the next
 * synchronisation point, where the GPU flushes its printf buffer.  A fault
 * prints our message on stderr and becomes the sticky error every later
 * call returns, as a GPU context does after a trap, assert or bad access.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "cu.h"
#include "runcase.h"
#include "builtins.h"

#define CU_API __attribute__((visibility("default")))

/* --check: runs one launch under the checker (cu_check.c). */
/* cu_check.c: runs the launch under the checker in place of vm_run; fills
 * fault as vm_run would (status VM_OK when it ended cleanly); *checked 0:
 * nothing ran, run it plainly.  Returns the number of findings. */
int cu_check_launch(cu_func *f, const vm_config *cfg, uint64_t seq, vm_fault *fault, int *checked);

static void printf_sink(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    if (cu_g.printf_len + len + 1 > cu_g.printf_cap) {
        size_t cap = (cu_g.printf_len + len + 1) * 2;
        char *nb = realloc(cu_g.printf_buf, cap);
        if (!nb) return;
        cu_g.printf_buf = nb;
        cu_g.printf_cap = cap;
    }
    memcpy(cu_g.printf_buf + cu_g.printf_len, text, len);
    cu_g.printf_len += len;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Whether addr is mapped in this process (a host pointer, when it is not
 * in any device allocation). */
static int host_mapped(uint64_t addr)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0) pg = 4096;
    unsigned char v;
    return mincore((void *)(uintptr_t)(addr & ~(uint64_t)(pg - 1)), 1, &v) == 0;
}

/* The CUDA error a launch status turns into on the GPU. */
static CUresult status_error(const vm_fault *f)
{
    switch (f->status) {
    case VM_FAULT: return strstr(f->msg, "misaligned") ? CUDA_ERROR_MISALIGNED_ADDRESS : CUDA_ERROR_ILLEGAL_ADDRESS;
    case VM_TRAP: return CUDA_ERROR_LAUNCH_FAILED;
    case VM_ASSERT: return CUDA_ERROR_ASSERT;
    case VM_DEADLOCK: case VM_LIMIT: return CUDA_ERROR_LAUNCH_TIMEOUT;
    default: return CUDA_ERROR_LAUNCH_FAILED;
    }
}

/* Prints the fault as ptxemu run does, plus a note for a host pointer. */
static void report_fault(cu_func *f, const vm_fault *fault, uint64_t seq)
{
    const ptxemu_module *pm = f->mod->pm;
    const char *kname = pm->bc->funcs[f->index].name;
    char where[768];
    rt_describe_fault(pm, fault, where, sizeof where);
    const char *note = "";
    const char *hex = strstr(fault->msg, "at 0x");
    if (hex && strstr(fault->msg, "not in any allocation")) {
        uint64_t a = strtoull(hex + 3, NULL, 16);
        if (a && host_mapped(a))
            note = "\n  the address is host memory (malloc, new, the stack or a static variable): kernels can only "
                   "use memory from cudaMalloc, cudaMallocManaged or cudaMallocHost";
    }
    cu_flush_printf();
    if (fault->status == VM_ASSERT) fprintf(stderr, "%s\n", fault->msg);
    fprintf(stderr, "ptxemu: kernel %s (launch %llu): %s: %s\n  at %s%s\n", kname, (unsigned long long)seq,
            vm_status_name(fault->status), fault->msg, where, note);
    if (fault->report) fprintf(stderr, "%s", fault->report);
    cu_report("fault %s #%llu %s: %s at %s", kname, (unsigned long long)seq, vm_status_name(fault->status), fault->msg, where);
    cu_g.faults++;
}

/* Checks the configuration as the driver does before a launch. */
static CUresult check_config(cu_func *f, const unsigned g[3], const unsigned b[3], unsigned shmem)
{
    if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2]) return CUDA_ERROR_INVALID_VALUE;
    if (b[0] > CU_MAX_THREADS_PER_BLOCK || b[1] > CU_MAX_THREADS_PER_BLOCK || b[2] > CU_MAX_BLOCK_Z)
        return CUDA_ERROR_INVALID_VALUE;
    if ((uint64_t)b[0] * b[1] * b[2] > CU_MAX_THREADS_PER_BLOCK) return CUDA_ERROR_INVALID_VALUE;
    if (g[0] > CU_MAX_GRID_X || g[1] > CU_MAX_GRID_YZ || g[2] > CU_MAX_GRID_YZ) return CUDA_ERROR_INVALID_VALUE;
    if (shmem > (unsigned)f->max_dyn_shared) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* Lays the arguments out in the kernel's parameter buffer. */
static CUresult build_params(cu_func *f, void **args, void **extra, uint8_t **buf, size_t *size)
{
    const bc_func *k = &f->mod->pm->bc->funcs[f->index];
    if (extra) {
        void *p = NULL;
        size_t n = 0;
        for (int i = 0; extra[i] != (void *)(uintptr_t)CU_LAUNCH_PARAM_END_AS_INT; i += 2) {
            if (extra[i] == (void *)(uintptr_t)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT) p = extra[i + 1];
            else if (extra[i] == (void *)(uintptr_t)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT) n = *(size_t *)extra[i + 1];
            else return CUDA_ERROR_INVALID_VALUE;
        }
        size_t need = k->nparams ? (size_t)k->params[k->nparams - 1].offset + (size_t)k->params[k->nparams - 1].size : 0;
        if ((!p && need) || n < need) return CUDA_ERROR_INVALID_VALUE;
        *buf = calloc(1, k->param_size ? (size_t)k->param_size : 1);
        if (!*buf) return CUDA_ERROR_OUT_OF_MEMORY;
        if (need) memcpy(*buf, p, need);
        *size = (size_t)k->param_size;
        return CUDA_SUCCESS;
    }
    if (k->nparams && !args) return CUDA_ERROR_INVALID_VALUE;
    *buf = calloc(1, k->param_size ? (size_t)k->param_size : 1);
    if (!*buf) return CUDA_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < k->nparams; i++) {
        if (!args[i]) { free(*buf); return CUDA_ERROR_INVALID_VALUE; }
        memcpy(*buf + k->params[i].offset, args[i], (size_t)k->params[i].size);
    }
    *size = (size_t)k->param_size;
    return CUDA_SUCCESS;
}

/* A launch whose kernel's last launch ran fewer lane-instructions than this
 * (scaled to this launch's threads) runs on one thread: a parallel launch
 * costs ~35 us more to start and wait for (helper wake-ups, shadow words),
 * and on this machine saxpy broke even at ~8,000 threads, ~115 K
 * lane-instructions (docs/PERFORMANCE.md, step 31). */
#define CU_PAR_MIN_LANE_INSNS 250000.0

/* Larger launches of one kernel learn which way is faster: a kernel that
 * streams through memory runs slower on several threads (the shadow words
 * and undo copies cost about what its work does), one that computes runs
 * faster.  The first two such launches run on several threads (the first,
 * often the first to touch its buffers, is not timed), the next on one;
 * then one thread wins unless several are CU_PAR_MARGIN times faster, and
 * every CU_REPROBE-th launch times the other way again.  A rate rises at
 * once and falls by a fifth of the difference (a machine busy with other
 * work makes single launches slow, never fast).  Launches under
 * CU_RATE_MIN_INSNS are not timed (too short). */
#define CU_RATE_MIN_INSNS 2000000.0
#define CU_PAR_MARGIN 1.1
#define CU_REPROBE 16

/* How a launch of f chose its host threads, for --trace. */
typedef enum { JOBS_ASKED, JOBS_SMALL, JOBS_PROBE, JOBS_FASTER } jobs_why;

/* The host threads for a launch of f of `threads` threads when `jobs` may
 * run it (the rules above); *why says which rule decided, *expect the
 * lane-instructions the last launch suggests. */
static int choose_jobs(cu_func *f, int jobs, double threads, jobs_why *why, double *expect)
{
    *why = JOBS_ASKED;
    *expect = f->insns_per_thread * threads;
    if (jobs <= 1) return jobs;
    if (!f->work_varies && f->insns_per_thread > 0 && *expect < CU_PAR_MIN_LANE_INSNS) { *why = JOBS_SMALL; return 1; }
    if (f->rate[1] > 0 && f->rate[0] == 0) { *why = JOBS_PROBE; return 1; }
    if (f->rate[0] > 0 && f->rate[1] > 0) {
        int one = f->rate[0] * CU_PAR_MARGIN >= f->rate[1];
        *why = one ? JOBS_FASTER : JOBS_ASKED;
        if (++f->since_probe >= CU_REPROBE) { f->since_probe = 0; one = !one; *why = JOBS_PROBE; }
        return one ? 1 : jobs;
    }
    return jobs;
}

/* What a finished launch teaches about f: its work per thread, and the rate
 * of the way it was asked to run (several threads that fell back to one
 * count for several: that is what asking for them gave). */
static void learn(cu_func *f, int jobs, jobs_why why, double threads, uint64_t insns, double secs)
{
    if (threads > 0) f->insns_per_thread = (double)insns / threads;
    /* the work per thread depends on more than the grid (a grid-stride loop over n, say) */
    if (why == JOBS_SMALL && (double)insns > 4 * CU_PAR_MIN_LANE_INSNS) f->work_varies = 1;
    if (why == JOBS_SMALL || (double)insns < CU_RATE_MIN_INSNS || secs <= 0 || (jobs <= 1 && why == JOBS_ASKED)) return;
    if (!f->large_seen++) return;
    double r = (double)insns / secs, *old = &f->rate[jobs > 1];
    *old = r > *old ? r : *old + (r - *old) / 5;
}

/* --jobs default: the online CPUs (at least 1). */
static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static CUresult launch(cu_func *f, const unsigned g[3], const unsigned b[3], unsigned shmem,
                       void **args, void **extra, int coop)
{
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    cu_lock();
    if (cu_g.sticky) { CUresult s = cu_g.sticky; cu_unlock(); return s; }
    CUresult r = check_config(f, g, b, shmem);
    uint8_t *params = NULL;
    size_t psize = 0;
    if (r == CUDA_SUCCESS) r = build_params(f, args, extra, &params, &psize);
    uint64_t seq = ++cu_g.launches;
    const char *kname = f->mod->pm->bc->funcs[f->index].name;
    cu_trace("launch #%llu %s grid (%u,%u,%u) block (%u,%u,%u) shared %u -> %d", (unsigned long long)seq, kname,
             g[0], g[1], g[2], b[0], b[1], b[2], shmem, r);
    if (r != CUDA_SUCCESS) { cu_unlock(); return r; }
    vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int i = 0; i < 3; i++) { cfg.grid[i] = g[i]; cfg.block[i] = b[i]; }
    cfg.dyn_shared = shmem;
    cfg.params = params;
    cfg.params_size = psize;
    cfg.timeout = cu_g.timeout;
    cfg.output = printf_sink;
    cfg.builtins = &rt_builtins_printf;   /* device printf through the runtime's formatter */
    double threads = (double)g[0] * g[1] * g[2] * b[0] * b[1] * b[2], expect;
    jobs_why why;
    int asked = cu_g.jobs > 0 ? cu_g.jobs : online_cpus();   /* blocks on host threads (vm/par.h) */
    cfg.jobs = choose_jobs(f, asked, threads, &why, &expect);
    vm_fault fault;
    uint64_t insns = 0;
    double t0 = now_s();
    vm_status st = VM_OK;
    int checked = 0;
    vm_hooks ph;
    int profiling = !cu_g.check && !cu_profile_hooks(f, &ph);
    if (profiling) cfg.hooks = &ph;
    if (cu_g.check) {
        cu_check_launch(f, &cfg, seq, &fault, &checked);
        st = fault.status;
    }
    if (!checked) st = vm_run(f->mod->pm->bc, &cu_g.mem, f->mod->var_addr, f->index, &cfg, &fault, &insns);
    if (profiling) cu_profile_done(f);
    double secs = now_s() - t0;
    if (!checked && !profiling && st == VM_OK) learn(f, cfg.jobs, why, threads, insns, secs);
    if (why == JOBS_SMALL)
        snprintf(fault.threads_note, sizeof fault.threads_note, "a small launch (about %.0f lane-instructions, "
                 "from the kernel's last launch)", expect);
    else if (why == JOBS_FASTER)
        snprintf(fault.threads_note, sizeof fault.threads_note, "one thread ran this kernel faster (%.0f M "
                 "lane-instructions/s, against %.0f on %d)", f->rate[0] / 1e6, f->rate[1] / 1e6, asked);
    else if (why == JOBS_PROBE && cfg.jobs == 1)
        snprintf(fault.threads_note, sizeof fault.threads_note, "timing this kernel on one thread");
    else if (why == JOBS_PROBE && !fault.threads_note[0])
        snprintf(fault.threads_note, sizeof fault.threads_note, "timing this kernel on %d threads again", asked);
    cu_trace("launch #%llu %s: %s, %llu instructions in %.3f s on %d host thread%s%s%s", (unsigned long long)seq, kname,
             vm_status_name(st), (unsigned long long)insns, secs, fault.threads, fault.threads == 1 ? "" : "s",
             fault.threads_note[0] ? ": " : "", fault.threads_note);
    if (fault.threads > 1 && fault.par.end > 0)
        cu_trace("launch #%llu threads: in blocks %.0f%% of %d x %.2f ms, the last began at %.2f ms, the first found "
                 "none left at %.2f ms", (unsigned long long)seq, 100.0 * fault.par.busy / (fault.threads * fault.par.end),
                 fault.threads, fault.par.end * 1e3, fault.par.last_start * 1e3, fault.par.first_end * 1e3);
    if (st != VM_OK && fault.bad_launch) {
        cu_trace("launch refused: %s", fault.msg);
        r = coop && strstr(fault.msg, "resident") ? CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE : CUDA_ERROR_INVALID_VALUE;
    } else if (st != VM_OK) {
        report_fault(f, &fault, seq);
        cu_g.sticky = status_error(&fault);
    }
    free(fault.report);
    free(params);
    cu_unlock();
    return r;
}

CU_API CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shmem, CUstream s, void **args, void **extra)
{
    unsigned g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
    return launch(f, g, b, shmem, args, extra, 0);
}

CU_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned shmem, CUstream s, void **args, void **extra)
{
    return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, s, args, extra);
}

CU_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz, unsigned shmem, CUstream s, void **args)
{
    unsigned g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
    return launch(f, g, b, shmem, args, NULL, 1);
}

CU_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                               unsigned by, unsigned bz, unsigned shmem, CUstream s, void **args)
{
    return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shmem, s, args);
}

CU_API CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **args, void **extra)
{
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    int coop = 0;
    for (unsigned i = 0; i < c->numAttrs && c->attrs; i++) {
        const CUlaunchAttribute *a = &c->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) coop = a->value.cooperative;
        if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
            (uint64_t)a->value.dim.x * a->value.dim.y * a->value.dim.z > 1)
            return cu_unsupported("cuLaunchKernelEx with thread-block clusters");
    }
    unsigned g[3] = { c->gridDimX, c->gridDimY, c->gridDimZ }, b[3] = { c->blockDimX, c->blockDimY, c->blockDimZ };
    return launch(f, g, b, c->sharedMemBytes, args, extra, coop);
}

CU_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *c, CUfunction f, void **args, void **extra)
{
    return cuLaunchKernelEx(c, f, args, extra);
}

CU_API CUresult cuLaunchHostFunc(CUstream s, void (*fn)(void *), void *data)
{
    if (!fn) return CUDA_ERROR_INVALID_VALUE;
    cu_flush_printf();
    fn(data);
    return CUDA_SUCCESS;
}
CU_API CUresult cuLaunchHostFunc_ptsz(CUstream s, void (*fn)(void *), void *data) { return cuLaunchHostFunc(s, fn, data); }

/* ---- streams ----------------------------------------------------------------- */

static CUresult stream_create(CUstream *ps, unsigned flags, int prio)
{
    if (!ps) return CUDA_ERROR_INVALID_VALUE;
    cu_stream *s = calloc(1, sizeof *s);
    if (!s) return CUDA_ERROR_OUT_OF_MEMORY;
    s->magic = CU_STREAM_MAGIC;
    s->flags = flags;
    s->priority = prio;
    s->ctx = cu_current_ctx();
    cu_lock();
    s->id = ++cu_g.next_stream_id + 2;
    cu_unlock();
    *ps = s;
    return CUDA_SUCCESS;
}

CU_API CUresult cuStreamCreate(CUstream *ps, unsigned flags) { return stream_create(ps, flags, 0); }
CU_API CUresult cuStreamCreateWithPriority(CUstream *ps, unsigned flags, int prio) { return stream_create(ps, flags, prio); }

static int is_stream(CUstream s) { return !s || (uintptr_t)s <= 2 || s->magic == CU_STREAM_MAGIC; }

CU_API CUresult cuStreamDestroy_v2(CUstream s)
{
    if (!s || (uintptr_t)s <= 2 || s->magic != CU_STREAM_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    s->magic = 0;
    free(s);
    return CUDA_SUCCESS;
}

CU_API CUresult cuStreamSynchronize(CUstream s)
{
    if (!is_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    return cuCtxSynchronize();
}
CU_API CUresult cuStreamSynchronize_ptsz(CUstream s) { return cuStreamSynchronize(s); }

CU_API CUresult cuStreamQuery(CUstream s)
{
    if (!is_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    cu_lock();
    CUresult r = cu_g.sticky;
    cu_unlock();
    return r;
}
CU_API CUresult cuStreamQuery_ptsz(CUstream s) { return cuStreamQuery(s); }

CU_API CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
    if (!is_stream(s) || !e || e->magic != CU_EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned flags) { return cuStreamWaitEvent(s, e, flags); }

CU_API CUresult cuStreamGetFlags(CUstream s, unsigned *flags)
{
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    if (!is_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    *flags = (uintptr_t)s > 2 ? s->flags : 0;
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamGetFlags_ptsz(CUstream s, unsigned *flags) { return cuStreamGetFlags(s, flags); }

CU_API CUresult cuStreamGetPriority(CUstream s, int *prio)
{
    if (!prio) return CUDA_ERROR_INVALID_VALUE;
    if (!is_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    *prio = (uintptr_t)s > 2 ? s->priority : 0;
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamGetPriority_ptsz(CUstream s, int *prio) { return cuStreamGetPriority(s, prio); }

CU_API CUresult cuStreamGetId(CUstream s, unsigned long long *id)
{
    if (!id) return CUDA_ERROR_INVALID_VALUE;
    if (!is_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    *id = (uintptr_t)s > 2 ? s->id : (uintptr_t)s;
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamGetId_ptsz(CUstream s, unsigned long long *id) { return cuStreamGetId(s, id); }

CU_API CUresult cuStreamGetCtx(CUstream s, CUcontext *c)
{
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    *c = (uintptr_t)s > 2 && s->ctx ? s->ctx : cu_current_ctx() ? cu_current_ctx() : &cu_g.primary;
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamGetCtx_ptsz(CUstream s, CUcontext *c) { return cuStreamGetCtx(s, c); }
CU_API CUresult cuStreamGetCtx_v2(CUstream s, CUcontext *c, void **green) { if (green) *green = NULL; return cuStreamGetCtx(s, c); }
CU_API CUresult cuStreamGetCtx_v2_ptsz(CUstream s, CUcontext *c, void **green) { return cuStreamGetCtx_v2(s, c, green); }
CU_API CUresult cuStreamGetDevice(CUstream s, CUdevice *d) { if (!d) return CUDA_ERROR_INVALID_VALUE; *d = 0; return CUDA_SUCCESS; }
CU_API CUresult cuStreamGetDevice_ptsz(CUstream s, CUdevice *d) { return cuStreamGetDevice(s, d); }

CU_API CUresult cuStreamAddCallback(CUstream s, void (*cb)(CUstream, CUresult, void *), void *data, unsigned flags)
{
    if (!cb) return CUDA_ERROR_INVALID_VALUE;
    cu_flush_printf();
    cb(s, cu_g.sticky, data);
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamAddCallback_ptsz(CUstream s, void (*cb)(CUstream, CUresult, void *), void *data, unsigned f) { return cuStreamAddCallback(s, cb, data, f); }

CU_API CUresult cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t n, unsigned flags) { return CUDA_SUCCESS; }
CU_API CUresult cuStreamAttachMemAsync_ptsz(CUstream s, CUdeviceptr p, size_t n, unsigned flags) { return CUDA_SUCCESS; }

/* No stream is ever capturing (graphs are not supported). */
CU_API CUresult cuStreamIsCapturing(CUstream s, int *status) { if (!status) return CUDA_ERROR_INVALID_VALUE; *status = 0; return CUDA_SUCCESS; }
CU_API CUresult cuStreamIsCapturing_ptsz(CUstream s, int *status) { return cuStreamIsCapturing(s, status); }
CU_API CUresult cuStreamGetCaptureInfo_v3(CUstream s, int *status, unsigned long long *id, void **g, const void **deps,
                                          const void **edges, size_t *n)
{
    if (status) *status = 0;
    if (n) *n = 0;
    return CUDA_SUCCESS;
}
CU_API CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream s, int *st, unsigned long long *id, void **g, const void **d,
                                               const void **e, size_t *n) { return cuStreamGetCaptureInfo_v3(s, st, id, g, d, e, n); }
CU_API CUresult cuStreamGetCaptureInfo_v2(CUstream s, int *status, unsigned long long *id, void **g, const void **deps, size_t *n)
{
    return cuStreamGetCaptureInfo_v3(s, status, id, g, deps, NULL, n);
}
CU_API CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream s, int *st, unsigned long long *id, void **g, const void **d, size_t *n)
{
    return cuStreamGetCaptureInfo_v3(s, st, id, g, d, NULL, n);
}
CU_API CUresult cuThreadExchangeStreamCaptureMode(int *mode) { return mode ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

/* ---- events ------------------------------------------------------------------ */

CU_API CUresult cuEventCreate(CUevent *pe, unsigned flags)
{
    if (!pe) return CUDA_ERROR_INVALID_VALUE;
    cu_event *e = calloc(1, sizeof *e);
    if (!e) return CUDA_ERROR_OUT_OF_MEMORY;
    e->magic = CU_EVENT_MAGIC;
    e->flags = flags;
    *pe = e;
    return CUDA_SUCCESS;
}

CU_API CUresult cuEventRecord(CUevent e, CUstream s)
{
    if (!e || e->magic != CU_EVENT_MAGIC || !is_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    cu_lock();
    CUresult r = cu_g.sticky;
    cu_unlock();
    if (r) return r;
    e->t = now_s();
    e->recorded = 1;
    return CUDA_SUCCESS;
}
CU_API CUresult cuEventRecord_ptsz(CUevent e, CUstream s) { return cuEventRecord(e, s); }
CU_API CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned f) { return cuEventRecord(e, s); }
CU_API CUresult cuEventRecordWithFlags_ptsz(CUevent e, CUstream s, unsigned f) { return cuEventRecord(e, s); }

CU_API CUresult cuEventQuery(CUevent e)
{
    if (!e || e->magic != CU_EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    cu_lock();
    CUresult r = cu_g.sticky;
    cu_unlock();
    return r;
}

CU_API CUresult cuEventSynchronize(CUevent e)
{
    if (!e || e->magic != CU_EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    return cuCtxSynchronize();
}

CU_API CUresult cuEventDestroy_v2(CUevent e)
{
    if (!e || e->magic != CU_EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    e->magic = 0;
    free(e);
    return CUDA_SUCCESS;
}

enum { CU_EVENT_DISABLE_TIMING = 2 };

CU_API CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    if (!ms) return CUDA_ERROR_INVALID_VALUE;
    if (!a || !b || a->magic != CU_EVENT_MAGIC || b->magic != CU_EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) return CUDA_ERROR_INVALID_HANDLE;
    if (!a->recorded || !b->recorded) return CUDA_ERROR_INVALID_HANDLE;
    *ms = (float)((b->t - a->t) * 1e3);
    return CUDA_SUCCESS;
}
CU_API CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime(ms, a, b); }

/* ---- occupancy (the sm_90 limits: threads, blocks, shared memory; registers
 * are not modelled) ---------------------------------------------------------- */

/* The shared memory an SM gives a kernel: the smallest sm_90 carveout (in
 * KiB) holding its preferred percentage of the maximum, or the maximum. */
static uint64_t sm_shared(const cu_func *f)
{
    static const unsigned carveouts_kib[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };
    if (!f->carveout_set) return CU_SHARED_PER_SM;
    uint64_t want = (uint64_t)CU_SHARED_PER_SM * (uint64_t)f->carveout / 100;
    for (size_t i = 0; i < sizeof carveouts_kib / sizeof carveouts_kib[0]; i++)
        if ((uint64_t)carveouts_kib[i] * 1024 >= want) return (uint64_t)carveouts_kib[i] * 1024;
    return CU_SHARED_PER_SM;
}

static int blocks_per_sm(cu_func *f, int block, size_t dyn)
{
    if (block <= 0) return 0;
    int warps = (block + 31) / 32;
    int by_threads = (int)(CU_THREADS_PER_SM / 32) / warps;
    uint64_t smem = f->static_shared + dyn + VM_RESERVED_SMEM;
    int by_smem = (int)(sm_shared(f) / smem);
    int n = by_threads < by_smem ? by_threads : by_smem;
    return n < (int)CU_BLOCKS_PER_SM ? n : (int)CU_BLOCKS_PER_SM;
}

CU_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, CUfunction f, int block, size_t dyn, unsigned flags)
{
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    *n = blocks_per_sm(f, block, dyn);
    return CUDA_SUCCESS;
}

CU_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t dyn)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block, dyn, 0);
}

CU_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, CUfunction f,
                                                          size_t (*dyn_of)(int), size_t dyn, int limit, unsigned flags)
{
    if (!min_grid || !block) return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    int max = limit > 0 && limit < (int)CU_MAX_THREADS_PER_BLOCK ? limit : (int)CU_MAX_THREADS_PER_BLOCK;
    int best = 0, best_b = 32;
    for (int b = max - max % 32; b >= 32; b -= 32) {
        int per = blocks_per_sm(f, b, dyn_of ? dyn_of(b) : dyn);
        if (per * b > best) { best = per * b; best_b = b; }
    }
    *block = best_b;
    *min_grid = blocks_per_sm(f, best_b, dyn_of ? dyn_of(best_b) : dyn) * CU_SM_COUNT;
    return CUDA_SUCCESS;
}

CU_API CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f, size_t (*dyn_of)(int),
                                                 size_t dyn, int limit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, f, dyn_of, dyn, limit, 0);
}

CU_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *n, CUfunction f, int nblocks, int block)
{
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->magic != CU_FUNC_MAGIC || nblocks <= 0) return CUDA_ERROR_INVALID_VALUE;
    uint64_t per = sm_shared(f) / (uint64_t)nblocks;
    uint64_t used = f->static_shared + VM_RESERVED_SMEM;
    per = per > used ? per - used : 0;
    *n = per < (uint64_t)f->max_dyn_shared ? per : (uint64_t)f->max_dyn_shared;
    return CUDA_SUCCESS;
}
