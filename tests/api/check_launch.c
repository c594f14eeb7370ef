/* check_launch.c — the checker on launches no case file describes
 * (chk_run_launch), as `ptxemu exec --check` uses it: the caller's device
 * memory must end as after a plain launch (the hardware-like schedule 0),
 * the findings must be those of `ptxemu check` on the same launch, and the
 * report must not depend on the number of threads.  Prints PASS/FAIL lines
 * and "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "ptxemu.h"

static int pass, fail;

static void expect(int ok, const char *what, const char *detail)
{
    if (ok) { printf("PASS %s\n", what); pass++; }
    else { printf("FAIL %s%s%s\n", what, detail ? ": " : "", detail ? detail : ""); fail++; }
}

/* A device with `n` buffers of `size` bytes (buffer i filled with bytes
 * fill[i]) and m placed in it. */
typedef struct dev { ptxemu_device d; uint64_t buf[4]; } dev;

static int dev_init(dev *D, const ptxemu_module *m, int n, uint64_t size, const int *fill)
{
    ptxemu_device_init(&D->d);
    for (int i = 0; i < n; i++) {
        D->buf[i] = ptxemu_malloc(&D->d, size);
        uint8_t *tmp = malloc(size);
        for (uint64_t j = 0; j < size; j++) tmp[j] = (uint8_t)(fill[i] + (int)j);
        ptxemu_memcpy_htod(&D->d, D->buf[i], tmp, size);
        free(tmp);
    }
    char msg[256];
    if (vm_place_module(m->bc, &D->d.mem, &D->d.var_addr, msg, sizeof msg)) return -1;
    D->d.placed = m;
    return 0;
}

static void cfg_init(vm_config *cfg, uint32_t grid, uint32_t block, const void *params, size_t size)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->grid[0] = grid; cfg->grid[1] = cfg->grid[2] = 1;
    cfg->block[0] = block; cfg->block[1] = cfg->block[2] = 1;
    cfg->params = params;
    cfg->params_size = size;
}

static int has_kind(const chk_result *r, chk_kind k)
{
    for (int i = 0; i < r->nfindings; i++) if (r->findings[i].kind == k) return 1;
    return 0;
}

/* Checks kernel `name` of m with the given buffers and 2-pointer params;
 * compares the caller's memory afterwards with a plain launch's. */
static int check_one(const ptxemu_module *m, const char *name, uint32_t grid, uint32_t block, int nbuf,
                     uint64_t size, int jobs, chk_result *r, int *same_as_run)
{
    static const int fill[4] = { 1, 7, 0, 0 };
    dev A, B;
    if (dev_init(&A, m, nbuf, size, fill) || dev_init(&B, m, nbuf, size, fill)) return -1;
    uint64_t params[2] = { A.buf[0], A.buf[1] };
    if (nbuf == 1) params[1] = 0;
    vm_config cfg;
    cfg_init(&cfg, grid, block, params, nbuf == 1 ? 8 : 16);
    chk_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = jobs;
    int k = bc_find_func(m->bc, name);
    int code = chk_run_launch(m, k, &cfg, &A.d.mem, A.d.var_addr, &o, r);
    vm_fault f;
    ptxemu_launch(&B.d, m, name, &cfg, &f, NULL);     /* same addresses: params are valid for B too */
    free(f.report);
    *same_as_run = 1;
    for (int i = 0; i < nbuf; i++) {
        uint8_t *a = malloc(size), *b = malloc(size);
        ptxemu_memcpy_dtoh(&A.d, a, A.buf[i], size);
        ptxemu_memcpy_dtoh(&B.d, b, B.buf[i], size);
        if (memcmp(a, b, size)) *same_as_run = 0;
        free(a);
        free(b);
    }
    ptxemu_device_destroy(&A.d);
    ptxemu_device_destroy(&B.d);
    return code;
}

static int same_report(const chk_result *a, const chk_result *b)
{
    if (a->nfindings != b->nfindings || a->schedules != b->schedules || a->status != b->status) return 0;
    for (int i = 0; i < a->nfindings; i++) {
        const chk_finding *x = &a->findings[i], *y = &b->findings[i];
        if (x->kind != y->kind || strcmp(x->key, y->key) || x->count != y->count || x->seed != y->seed ||
            strcmp(x->msg, y->msg))
            return 0;
    }
    return 1;
}

int main(void)
{
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load("tests/check/rules.ptx", &d, &text, &len);
    ptxemu_module *tm = ptxemu_load("tests/cases/trap_kernel/trap_kernel.ptx", &d, &text, &len);
    if (!m || !tm) { diag_render(&d, text, len, stderr); printf("FAIL load\n0 passed, 1 failed\n"); return 1; }
    chk_result r, r1;
    int same;
    char msg[1200];

    int code = check_one(m, "race_shared_warp", 1, 32, 2, 256, 0, &r, &same);
    expect(code == PTXEMU_EXIT_MISMATCH && has_kind(&r, CHK_RACE), "race_shared_warp: a race, exit 1", NULL);
    expect(r.status == VM_OK && r.schedules == CHK_DEFAULT_SCHEDULES, "race_shared_warp: status ok, 12 schedules", NULL);
    expect(same, "race_shared_warp: the caller's memory is a plain launch's", NULL);
    int code1 = check_one(m, "race_shared_warp", 1, 32, 2, 256, 1, &r1, &same);
    expect(code1 == code && same_report(&r, &r1), "race_shared_warp: one thread and all threads report the same", NULL);
    chk_result_free(&r);
    chk_result_free(&r1);

    code = check_one(m, "ok_race_shared_warp", 1, 32, 2, 256, 0, &r, &same);
    snprintf(msg, sizeof msg, "exit %d, %d findings", code, r.nfindings);
    expect(code == PTXEMU_EXIT_OK && r.nfindings == 0 && same, "ok_race_shared_warp: clean, memory as a plain launch", msg);
    chk_result_free(&r);

    /* atomicExch by every thread: the last writer depends on the schedule;
     * the regions compared default to every live allocation */
    code = check_one(m, "schedule_last_writer", 1, 64, 1, 4, 0, &r, &same);
    expect(code == PTXEMU_EXIT_MISMATCH && has_kind(&r, CHK_SCHEDULE) && same,
           "schedule_last_writer: schedule finding, memory as a plain launch", NULL);
    chk_result_free(&r);

    /* a trap in block 1 thread 40: status trap, exit 4, where it stopped */
    {
        dev A;
        static const int fill[1] = { 0 };
        dev_init(&A, tm, 1, 512, fill);
        struct { uint64_t out; int32_t mode; } p = { A.buf[0], 0 };
        vm_config cfg;
        cfg_init(&cfg, 2, 64, &p, sizeof p);
        chk_opts o;
        memset(&o, 0, sizeof o);
        code = chk_run_launch(tm, bc_find_func(tm->bc, "trap_kernel"), &cfg, &A.d.mem, A.d.var_addr, &o, &r);
        snprintf(msg, sizeof msg, "exit %d, status %s, %s", code, vm_status_name(r.status), r.end_msg);
        expect(code == PTXEMU_EXIT_FAULT && r.status == VM_TRAP && r.end_at.valid && r.end_at.cta[0] == 1 &&
               r.end_at.tid[0] == 40, "trap_kernel: exit 4, status trap at block 1 thread 40", msg);
        chk_result_free(&r);
        code = chk_run_launch(tm, -1, &cfg, &A.d.mem, A.d.var_addr, &o, &r);
        expect(code == PTXEMU_EXIT_USAGE && r.end_msg[0], "bad kernel index: usage error", r.end_msg);
        chk_result_free(&r);
        ptxemu_device_destroy(&A.d);
    }
    ptxemu_module_free(m);
    ptxemu_module_free(tm);
    diag_list_free(&d);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
