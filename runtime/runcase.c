/* runcase.c — one launch from a case description, with its expectations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runcase.h"
#include "builtins.h"

int rt_case_has_expectations(const rt_case *c)
{
    return c->nexpects || c->stdout_path || c->has_status;
}

vm_status rt_expected_status(rt_case_status s)
{
    switch (s) {
    case RT_CASE_STATUS_OK: return VM_OK;
    case RT_CASE_STATUS_DEADLOCK: return VM_DEADLOCK;
    case RT_CASE_STATUS_TRAP: return VM_TRAP;
    case RT_CASE_STATUS_ASSERT: return VM_ASSERT;
    case RT_CASE_STATUS_FAULT: return VM_FAULT;
    }
    return VM_OK;
}

static void capture(void *ctx, const char *text, size_t len)
{
    rt_strbuf_append(ctx, text, len);
}

void rt_describe_fault(const ptxemu_module *m, const vm_fault *f, char *buf, size_t len)
{
    char loc[512] = "";
    int line = 0;
    if (m && f->pc < m->bc->ncode) {
        line = m->bc->code[f->pc].line;
        bc_format_srcloc(m->bc, m->bc->code[f->pc].src, 1, loc, sizeof loc);
    }
    int fn = m ? bc_func_at(m->bc, f->pc) : -1;
    snprintf(buf, len, "%s:%d%s%s%s in %s, block (%u,%u,%u) thread (%u,%u,%u)", m ? m->path : "?", line,
             loc[0] ? " (" : "", loc, loc[0] ? ")" : "", fn >= 0 ? m->bc->funcs[fn].name : "?",
             f->cta[0], f->cta[1], f->cta[2], f->tid[0], f->tid[1], f->tid[2]);
}

/* Lays the case's parameters out in the kernel's parameter buffer. */
static int build_params(const rt_case *c, const bc_func *k, const uint64_t *bufaddr, uint8_t *pb, char *msg, size_t len)
{
    if (c->nparams != k->nparams) {
        snprintf(msg, len, "kernel '%s' takes %d parameters; the case gives %d", k->name, k->nparams, c->nparams);
        return -1;
    }
    for (int i = 0; i < c->nparams; i++) {
        const rt_case_param *p = &c->params[i];
        uint64_t v = p->kind == RT_CASE_PARAM_PTR ? bufaddr[p->buffer] : p->bits;
        size_t want = p->kind == RT_CASE_PARAM_PTR ? 8 : rt_case_param_size(p);
        if ((size_t)k->params[i].size != want) {
            snprintf(msg, len, "parameter %d of '%s' (%s) is %d bytes; the case gives %zu", i, k->name,
                     k->params[i].name, k->params[i].size, want);
            return -1;
        }
        memcpy(pb + k->params[i].offset, &v, want);
    }
    return 0;
}

/* expect-stat lines against the counted memory statistics. */
static int check_stats(const rt_case *c, rt_run_result *r)
{
    for (int i = 0; i < c->nstats; i++) {
        uint64_t got;
        if (rt_memstats_get(&r->stats, c->stats[i].name, &got)) continue;
        if (got != c->stats[i].value) {
            snprintf(r->msg, sizeof r->msg, "statistic %s: got %llu, want %llu", c->stats[i].name,
                     (unsigned long long)got, (unsigned long long)c->stats[i].value);
            return -1;
        }
    }
    return 0;
}

static int check_results(const rt_case *c, ptxemu_device *dev, const uint64_t *bufaddr, rt_run_result *r)
{
    for (int i = 0; i < c->nexpects; i++) {
        const rt_case_expect *e = &c->expects[i];
        const rt_case_buffer *b = &c->buffers[e->buffer];
        uint8_t *got = mem_xlate(&dev->mem, bufaddr[e->buffer], b->size);
        char m[512];
        int bad;
        if (!got && b->size) { snprintf(r->msg, sizeof r->msg, "buffer %s was freed", b->name); return -1; }
        if (e->close) {
            size_t es = e->is_f64 ? 8 : 4;
            bad = e->size != b->size ? (snprintf(m, sizeof m, "size %zu, want %zu", b->size, e->size), 1)
                                     : rt_compare_close(got, e->data, b->size / es, e->is_f64, e->rel, e->abs, m, sizeof m);
        } else bad = rt_compare_bytes(got, b->size, e->data, e->size, 4, m, sizeof m);
        if (bad) { snprintf(r->msg, sizeof r->msg, "buffer %s: %s", b->name, m); return -1; }
    }
    if (c->stdout_path) {
        size_t n = r->out.len < c->stdout_size ? r->out.len : c->stdout_size, k = 0;
        while (k < n && r->out.data[k] == (char)c->stdout_data[k]) k++;
        if (k < n || r->out.len != c->stdout_size) {
            size_t ls = k;
            while (ls > 0 && r->out.data[ls - 1] != '\n') ls--;
            int line = 1;
            for (size_t j = 0; j < ls; j++) line += r->out.data[j] == '\n';
            snprintf(r->msg, sizeof r->msg, "stdout differs at line %d (byte %zu): got %zu bytes, want %zu", line, k,
                     r->out.len, c->stdout_size);
            return -1;
        }
    }
    return 0;
}

static int do_dumps(const rt_case *c, const rt_run_opts *o, ptxemu_device *dev, const uint64_t *bufaddr, rt_run_result *r)
{
    for (int i = 0; i < o->ndumps; i++) {
        int b = -1;
        for (int k = 0; k < c->nbuffers; k++) if (!strcmp(c->buffers[k].name, o->dumps[i].name)) b = k;
        if (b < 0) { snprintf(r->msg, sizeof r->msg, "--dump: no buffer named '%s'", o->dumps[i].name); return -1; }
        uint8_t *p = mem_xlate(&dev->mem, bufaddr[b], c->buffers[b].size);
        FILE *f = fopen(o->dumps[i].path, "wb");
        if (!f || (c->buffers[b].size && (!p || fwrite(p, 1, c->buffers[b].size, f) != c->buffers[b].size))) {
            if (f) fclose(f);
            snprintf(r->msg, sizeof r->msg, "--dump: cannot write %s", o->dumps[i].path);
            return -1;
        }
        fclose(f);
    }
    return 0;
}

/* What rt_run_case and rt_prepare_launch share: the case's buffers on dev
 * (in case order), the parameter buffer, the --load libraries and the
 * launch configuration (its builtins in *bi).  Returns PTXEMU_EXIT_OK or USAGE with msg; the
 * caller frees *bufaddr, *params and *ffi in every case. */
static int setup_launch(const rt_case *c, const rt_run_opts *o, const ptxemu_module *m, ptxemu_device *dev,
                        uint64_t **bufaddr, uint8_t **params, rt_ffi **ffi, vm_builtins *bi, vm_config *cfg,
                        char *msg, size_t len)
{
    *bufaddr = calloc((size_t)(c->nbuffers ? c->nbuffers : 1), sizeof **bufaddr);
    if (!*bufaddr) { snprintf(msg, len, "out of memory"); return PTXEMU_EXIT_USAGE; }
    for (int i = 0; i < c->nbuffers; i++) {
        const rt_case_buffer *b = &c->buffers[i];
        (*bufaddr)[i] = mem_alloc_bytes(&dev->mem, b->size, b->name);
        if (!(*bufaddr)[i]) { snprintf(msg, len, "cannot allocate buffer %s (%zu bytes)", b->name, b->size); return PTXEMU_EXIT_USAGE; }
        mem_prefault(&dev->mem, (*bufaddr)[i], b->size);     /* every byte is written next */
        rt_case_buffer_init(b, mem_xlate(&dev->mem, (*bufaddr)[i], b->size));
    }
    int k = bc_find_func(m->bc, c->kernel);
    if (k < 0 || !m->bc->funcs[k].is_entry || m->bc->funcs[k].kind != BC_FN_DEFINED) {
        snprintf(msg, len, "%s has no kernel named '%s'", c->ptx_path, c->kernel);
        return PTXEMU_EXIT_USAGE;
    }
    const bc_func *kf = &m->bc->funcs[k];
    *params = calloc(1, (size_t)kf->param_size + 8);
    if (!*params) { snprintf(msg, len, "out of memory"); return PTXEMU_EXIT_USAGE; }
    if (build_params(c, kf, *bufaddr, *params, msg, len)) return PTXEMU_EXIT_USAGE;
    if (o->nlibs && rt_ffi_open(ffi, o->libs, o->nlibs, msg, len)) return PTXEMU_EXIT_USAGE;
    memset(cfg, 0, sizeof *cfg);
    memcpy(cfg->grid, c->grid, sizeof cfg->grid);
    memcpy(cfg->block, c->block, sizeof cfg->block);
    cfg->dyn_shared = c->shared_bytes;
    cfg->params = *params;
    cfg->params_size = (size_t)kf->param_size;
    cfg->timeout = o->timeout;
    cfg->insn_limit = o->insn_limit;
    cfg->seed = o->seed;
    cfg->hooks = o->hooks;
    rt_builtins_init(bi, *ffi);
    cfg->builtins = bi;
    cfg->local_size = o->local_size;
    cfg->cta_order_seed = o->cta_order_seed;
    cfg->slice = o->slice;
    cfg->resident = o->resident;
    cfg->jobs = o->jobs;
    return PTXEMU_EXIT_OK;
}

int rt_run_case(const rt_case *c, const rt_run_opts *o, int check, rt_run_result *r, diag_list *diags)
{
    memset(r, 0, sizeof *r);
    rt_strbuf_init(&r->out);
    r->ptx_path = c->ptx_path;
    if (o->jobs > 1 && !o->hooks) vm_par_warm(o->jobs);   /* the helpers start while the module loads */
    ptxemu_module *own = o->module ? NULL : ptxemu_load(c->ptx_path, diags, &r->ptx_text, &r->ptx_len);
    const ptxemu_module *m = o->module ? o->module : own;
    if (!m) return r->exit_code = PTXEMU_EXIT_PTX;
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    uint64_t *bufaddr = NULL;
    uint8_t *pb = NULL;
    rt_ffi *ffi = NULL;
    vm_builtins bi;
    vm_config cfg;
    int code = setup_launch(c, o, m, &dev, &bufaddr, &pb, &ffi, &bi, &cfg, r->msg, sizeof r->msg);
    if (code) goto done;
    cfg.output = capture;
    cfg.output_ctx = &r->out;
    vm_hooks stat_hooks;
    if (!o->hooks && o->memstats) {
        rt_memstats_init(&r->stats);
        rt_memstats_hooks(&r->stats, &stat_hooks);
        cfg.hooks = &stat_hooks;
        r->has_stats = 1;
    }
    double t0 = vm_now();
    r->status = ptxemu_launch(&dev, m, c->kernel, &cfg, &r->fault, &r->insns);
    r->launch_secs = vm_now() - t0;
    if (r->has_stats) rt_memstats_finish(&r->stats);
    code = r->fault.bad_launch ? PTXEMU_EXIT_USAGE : ptxemu_exit_code(r->status);
    if (r->fault.bad_launch) snprintf(r->msg, sizeof r->msg, "%s", r->fault.msg);
    else if (r->status != VM_OK) {
        char where[768];
        rt_describe_fault(m, &r->fault, where, sizeof where);
        if (r->status == VM_ERROR && !r->fault.report && r->fault.pc == 0 && r->fault.warp == 0 && r->fault.lane == 0)
            snprintf(r->msg, sizeof r->msg, "%s", r->fault.msg);
        else
            snprintf(r->msg, sizeof r->msg, "%s: %s\n  at %s", vm_status_name(r->status), r->fault.msg, where);
    }
    /* FNV-1a over 8-byte words (then the tail bytes): a byte at a time cost
     * more than short launches over big buffers; only when asked for (a
     * serial chain of multiplies: 1.3 ms for scan's 8 MB, a sixth of its setup) */
    r->buffers_hash = 1469598103934665603ull;
    for (int i = 0; o->digest && i < c->nbuffers; i++) {
        const uint8_t *p = mem_xlate(&dev.mem, bufaddr[i], c->buffers[i].size);
        size_t n = p ? c->buffers[i].size : 0, j = 0;
        for (; j + 8 <= n; j += 8) {
            uint64_t v;
            memcpy(&v, p + j, 8);
            r->buffers_hash = (r->buffers_hash ^ v) * 1099511628211ull;
        }
        for (; j < n; j++) r->buffers_hash = (r->buffers_hash ^ p[j]) * 1099511628211ull;
    }
    if (do_dumps(c, o, &dev, bufaddr, r)) { code = PTXEMU_EXIT_USAGE; goto done; }
    if (check && !rt_case_has_expectations(c)) {
        /* undefined result: it must only end cleanly (no crash, no host error) */
        r->unchecked = 1;
        code = r->status == VM_ERROR || r->status == VM_LIMIT ? code : PTXEMU_EXIT_OK;
    } else if (check) {
        vm_status want = rt_expected_status(c->status);
        if (r->status != want) {
            char prev[1024];
            snprintf(prev, sizeof prev, "%s", r->msg);
            snprintf(r->msg, sizeof r->msg, "ended with %s, expected %s%s%s", vm_status_name(r->status),
                     vm_status_name(want), prev[0] ? "; " : "", prev);
            code = code ? code : PTXEMU_EXIT_MISMATCH;
        } else {
            code = PTXEMU_EXIT_OK;
            if (r->status == VM_OK && check_results(c, &dev, bufaddr, r)) code = PTXEMU_EXIT_MISMATCH;
            else if (r->status == VM_OK && r->has_stats && check_stats(c, r)) code = PTXEMU_EXIT_MISMATCH;
        }
    }
done:
    r->exit_code = code;
    rt_ffi_close(ffi);
    free(pb);
    free(bufaddr);
    ptxemu_device_destroy(&dev);
    r->ptx_text = NULL;
    if (own) ptxemu_module_free(own);
    return code;
}

void rt_run_result_free(rt_run_result *r)
{
    rt_strbuf_free(&r->out);
    free(r->fault.report);
    free(r->ptx_text);
    memset(r, 0, sizeof *r);
}

int rt_prepare_launch(const rt_case *c, const rt_run_opts *o, rt_prepared *p, char *msg, size_t len, diag_list *diags)
{
    memset(p, 0, sizeof *p);
    ptxemu_device_init(&p->dev);
    if (len) msg[0] = 0;
    p->m = ptxemu_load(c->ptx_path, diags, &p->ptx_text, &p->ptx_len);
    if (!p->m) return PTXEMU_EXIT_PTX;
    int code = setup_launch(c, o, p->m, &p->dev, &p->bufaddr, &p->params, &p->ffi, &p->builtins, &p->cfg, msg, len);
    if (code) return code;
    p->kernel = bc_find_func(p->m->bc, c->kernel);
    if (vm_place_module(p->m->bc, &p->dev.mem, &p->dev.var_addr, msg, len)) return PTXEMU_EXIT_USAGE;
    p->dev.placed = p->m;
    return PTXEMU_EXIT_OK;
}

void rt_prepared_free(rt_prepared *p)
{
    rt_ffi_close(p->ffi);
    free(p->params);
    free(p->bufaddr);
    ptxemu_device_destroy(&p->dev);
    if (p->m) ptxemu_module_free(p->m);
    free(p->ptx_text);
    memset(p, 0, sizeof *p);
}
