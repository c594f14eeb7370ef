/* cu_check.c — `ptxemu exec --check`: each launch that ended normally is
 * run again under the warp-synchronous checker (runtime/check_launch.h, on
 * copies of its buffers: the program's memory is left as the hardware-like
 * run made it).  Findings go to the report file as one entry per launch,
 * the checker's text prefixed with the kernel and launch number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cu.h"
#include "check_launch.h"

/* The module's PTX in a file of its own (the checker loads cases by path). */
static const char *module_file(cu_module *m)
{
    if (m->ptx_file) return m->ptx_file;
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/ptxemu-exec-module-XXXXXX.ptx", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(path, 4);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) { close(fd); unlink(path); return NULL; }
    fwrite(m->pm->text, 1, m->pm->len, f);
    fclose(f);
    m->ptx_file = strdup(path);
    return m->ptx_file;
}

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

int cu_check_launch(cu_func *f, const vm_config *cfg, uint64_t seq)
{
    const char *kname = f->mod->pm->bc->funcs[f->index].name;
    const char *path = module_file(f->mod);
    char head[512], why[512] = "";
    if (!path) {
        fprintf(stderr, "ptxemu: --check: cannot write the module to a temporary file; launch %llu of %s not checked\n",
                (unsigned long long)seq, kname);
        return 0;
    }
    chk_opts o;
    memset(&o, 0, sizeof o);
    o.timeout = cu_g.timeout;
    chk_result r;
    diag_list d;
    diag_init(&d);
    int code = chk_launch_via_case(f->mod->pm, path, f->index, cfg, &cu_g.mem, &o, &r, &d, why, sizeof why);
    diag_list_free(&d);
    if (code < 0) {
        fprintf(stderr, "ptxemu: --check: launch %llu of %s not checked: %s\n", (unsigned long long)seq, kname, why);
        cu_report("unchecked %s #%llu %s", kname, (unsigned long long)seq, why);
        return 0;
    }
    if (r.nfindings) {
        char *text = NULL;
        size_t len = 0;
        FILE *mf = open_memstream(&text, &len);
        if (mf) {
            chk_write_text(&r, mf, "ptxemu exec --check (seeds cannot be chosen for exec yet)");
            fclose(mf);
            snprintf(head, sizeof head, "kernel %s (launch %llu): %d finding%s", kname, (unsigned long long)seq,
                     r.nfindings, r.nfindings == 1 ? "" : "s");
            report_entry(head, text ? text : "");
            free(text);
        }
    }
    int n = r.nfindings;
    chk_result_free(&r);
    return n;
}
