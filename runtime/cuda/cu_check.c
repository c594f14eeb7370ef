/* cu_check.c — `ptxemu exec --check`: a launch runs under the
 * warp-synchronous checker (chk_run_launch) in place of the plain run.
 * Schedule 0, the hardware-like one, runs on the program's own memory and
 * leaves it as a plain launch would; the adversarial schedules run on copies
 * made before the launch.  Findings go to the report file as one entry per
 * launch, the checker's text prefixed with the kernel and launch number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu.h"
#include "check.h"

/* Writes text to the report as one entry: "finding HEAD" then "+ LINE"s. */
static void report_entry(const char *head, const char *text)
{
    cu_report("finding %s", head);
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        int n = e ? (int)(e - p) : (int)strlen(p);
        cu_report("+ %.*s", n, p);
        p += n + (e != NULL);
    }
}

static void report_findings(const chk_result *r, const char *kname, uint64_t seq)
{
    char *text = NULL, head[512];
    size_t len = 0;
    FILE *mf = open_memstream(&text, &len);
    if (!mf) return;
    chk_write_text(r, mf, "ptxemu exec --check (seeds cannot be chosen for exec yet)");
    fclose(mf);
    snprintf(head, sizeof head, "kernel %s (launch %llu): %d finding%s", kname, (unsigned long long)seq,
             r->nfindings, r->nfindings == 1 ? "" : "s");
    report_entry(head, text ? text : "");
    free(text);
}

int cu_check_launch(cu_func *f, const vm_config *cfg, uint64_t seq, vm_fault *fault, int *checked)
{
    const ptxemu_module *pm = f->mod->pm;
    const char *kname = pm->bc->funcs[f->index].name;
    chk_opts o;
    memset(&o, 0, sizeof o);
    o.timeout = cu_g.timeout;
    o.jobs = cu_g.jobs;                /* schedules at once (0: one per CPU) */
    chk_result r;
    int code = chk_run_launch(pm, f->index, cfg, &cu_g.mem, f->mod->var_addr, &o, &r);
    *checked = code != PTXEMU_EXIT_USAGE || r.end_fault.bad_launch;
    if (!*checked) {
        /* nothing ran (no host memory for the copies): the caller runs it plainly */
        fprintf(stderr, "ptxemu: --check: launch %llu of %s not checked: %s\n", (unsigned long long)seq, kname,
                r.end_msg);
        cu_report("unchecked %s #%llu %s", kname, (unsigned long long)seq, r.end_msg);
        chk_result_free(&r);
        return 0;
    }
    memset(fault, 0, sizeof *fault);
    if (r.end_fault.bad_launch || r.status != VM_OK) *fault = r.end_fault;
    fault->status = r.end_fault.bad_launch ? VM_ERROR : r.status;
    if (r.nfindings) report_findings(&r, kname, seq);
    int n = r.nfindings;
    chk_result_free(&r);
    return n;
}
