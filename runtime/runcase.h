/* runcase.h — run one launch described by a case file (or built from the
 * command line into an rt_case) and check its expectations.
 *
 * Ownership: an rt_run_result owns its captured output and messages
 * (rt_run_result_free); the rt_case and options are borrowed.
 */
#ifndef PTXEMU_RUNCASE_H
#define PTXEMU_RUNCASE_H

#include "casefile.h"
#include "printf.h"
#include "ptxemu.h"
#include "memstats.h"

typedef struct rt_dump { const char *name, *path; } rt_dump;

typedef struct rt_run_opts {
    double timeout;              /* seconds, 0: none */
    uint64_t insn_limit;
    uint64_t seed;
    const char *const *libs;     /* --load libraries */
    int nlibs;
    const rt_dump *dumps;
    int ndumps;
    const vm_hooks *hooks;
    uint32_t local_size;
    uint64_t cta_order_seed;     /* vm_config.cta_order_seed (0: linear CTA order) */
    int slice;                   /* vm_config.slice (0: default) */
    int resident;                /* vm_config.resident: CTAs in flight (0: default) */
    int jobs;                    /* vm_config.jobs: host threads per launch (0 or 1: one) */
    int memstats;                /* count memory statistics (when no hooks are given);
                                    with `check`, compare expect-stat lines too */
    const ptxemu_module *module; /* the case's module, already loaded (borrowed; the
                                    checker shares one across its schedules), or NULL */
    int digest;                  /* compute rt_run_result.buffers_hash (`test --digest`) */
} rt_run_opts;

typedef struct rt_run_result {
    int exit_code;               /* PTXEMU_EXIT_* */
    vm_status status;
    vm_fault fault;
    char msg[1024];              /* why the run failed or mismatched */
    rt_strbuf out;               /* device printf output */
    uint64_t insns;              /* lane-instructions executed */
    double launch_secs;          /* wall time of the launch alone (not loading, buffers, checks) */
    char *ptx_text;              /* the module text, for rendering diagnostics */
    size_t ptx_len;
    const char *ptx_path;
    int unchecked;               /* the case states no expectation: any clean end passes */
    uint64_t buffers_hash;       /* FNV-1a over every buffer after the launch (with opts.digest) */
    int has_stats;               /* stats were counted (opts.memstats, or expect-stat lines) */
    rt_memstats stats;
} rt_run_result;

/* Runs the case.  PTX errors go to diags (exit 3).  Expectations (expect,
 * expect-close, expect-stdout, expect-status; expect-stat with
 * opts.memstats) are checked when `check` is set: a mismatch gives exit 1
 * and the first difference in msg. */
int rt_run_case(const rt_case *c, const rt_run_opts *o, int check, rt_run_result *r, diag_list *diags);
void rt_run_result_free(rt_run_result *r);

/* Whether the case states any expectation (expect*, expect-status). */
int rt_case_has_expectations(const rt_case *c);

/* The status a case expects, as a vm_status. */
vm_status rt_expected_status(rt_case_status s);

/* Formats the fault location "ptx line N (file.cu:L:C), block (x,y,z) thread (x,y,z)". */
void rt_describe_fault(const ptxemu_module *m, const vm_fault *f, char *buf, size_t len);

/* A launch set up but not run (the debugger drives it with vm_launch_*):
 * the module, a device with the case's buffers and the module's variables
 * placed, the parameter buffer and a vm_config pointing at it.  Owns all
 * of it (rt_prepared_free).  The buffers are allocated in the same order
 * as rt_run_case, so addresses match `ptxemu run`. */
typedef struct rt_prepared {
    ptxemu_module *m;
    ptxemu_device dev;
    uint64_t *bufaddr;           /* per case buffer: its device address */
    uint8_t *params;
    struct rt_ffi *ffi;
    vm_builtins builtins;        /* cfg.builtins points here (printf, ffi) */
    int kernel;                  /* function index of the kernel */
    vm_config cfg;               /* output/hooks left for the caller to set */
    char *ptx_text;              /* the module text (diagnostics, listings) */
    size_t ptx_len;
} rt_prepared;

/* Prepares the case's launch.  Returns PTXEMU_EXIT_OK, or an exit code
 * with msg (usage) or diags (PTX errors; p->ptx_text still set). */
int rt_prepare_launch(const rt_case *c, const rt_run_opts *o, rt_prepared *p, char *msg, size_t len, diag_list *diags);
void rt_prepared_free(rt_prepared *p);

#endif
