/* check_launch.c — the checker on one live launch, described as a case
 * (check_launch.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_launch.h"

/* Adds a buffer holding allocation idx (its current bytes), or finds the
 * one already added for it (bases[i]: buffer i's allocation). */
static int buffer_for(rt_case *c, uint64_t *bases, const mem_space *mem, int idx)
{
    const mem_alloc *a = &mem->allocs[idx];
    for (int i = 0; i < c->nbuffers; i++) if (bases[i] == a->base) return i;
    rt_case_buffer *b = &c->buffers[c->nbuffers];
    char name[48];
    snprintf(name, sizeof name, "%s@0x%llx", a->name ? a->name : "buffer", (unsigned long long)a->base);
    bases[c->nbuffers] = a->base;
    b->name = strdup(name);
    b->kind = RT_CASE_BUF_FILE;
    b->size = (size_t)a->size;
    b->data = a->size ? malloc((size_t)a->size) : NULL;
    if ((a->size && !b->data) || !b->name) return -1;
    if (a->size) memcpy(b->data, a->host, (size_t)a->size);
    return c->nbuffers++;
}

/* Describes the launch as a case; -1 with why when it cannot. */
static int build_case(rt_case *c, uint64_t *bases, const ptxemu_module *m, const char *ptx_path, int k,
                      const vm_config *cfg, const mem_space *mem, char *why, size_t whylen)
{
    const bc_func *f = &m->bc->funcs[k];
    memset(c, 0, sizeof *c);
    c->case_path = strdup(ptx_path);
    c->ptx_path = strdup(ptx_path);
    c->kernel = strdup(f->name);
    for (int i = 0; i < 3; i++) { c->grid[i] = cfg->grid[i]; c->block[i] = cfg->block[i]; }
    c->shared_bytes = (uint32_t)cfg->dyn_shared;
    c->params = calloc((size_t)(f->nparams ? f->nparams : 1), sizeof *c->params);
    c->buffers = calloc((size_t)(f->nparams ? f->nparams : 1), sizeof *c->buffers);
    if (!c->case_path || !c->ptx_path || !c->kernel || !c->params || !c->buffers) { snprintf(why, whylen, "out of memory"); return -1; }
    const uint8_t *pb = cfg->params;
    for (int i = 0; i < f->nparams; i++) {
        const bc_param *p = &f->params[i];
        rt_case_param *cp = &c->params[c->nparams++];
        cp->buffer = -1;
        if (p->size == 8) {
            uint64_t v;
            memcpy(&v, pb + p->offset, 8);
            int idx = v ? mem_find(mem, v, 1) : -1;
            if (idx >= 0 && mem->allocs[idx].base == v) {
                cp->kind = RT_CASE_PARAM_PTR;
                cp->buffer = buffer_for(c, bases, mem, idx);
                if (cp->buffer < 0) { snprintf(why, whylen, "out of memory"); return -1; }
            } else {
                cp->kind = RT_CASE_PARAM_U64;
                cp->bits = v;
            }
        } else if (p->size == 4) {
            uint32_t v;
            memcpy(&v, pb + p->offset, 4);
            cp->kind = RT_CASE_PARAM_U32;
            cp->bits = v;
        } else {
            snprintf(why, whylen, "parameter %d (%s) is passed by value in %d bytes, which a case cannot describe", i,
                     p->name, p->size);
            return -1;
        }
    }
    return 0;
}

int chk_launch_via_case(const ptxemu_module *m, const char *ptx_path, int k, const vm_config *cfg,
                        const mem_space *mem, const chk_opts *o, chk_result *r, diag_list *diags,
                        char *why, size_t whylen)
{
    rt_case c;
    memset(r, 0, sizeof *r);
    int n = m->bc->funcs[k].nparams;
    uint64_t *bases = calloc((size_t)(n ? n : 1), sizeof *bases);
    if (!bases || build_case(&c, bases, m, ptx_path, k, cfg, mem, why, whylen)) {
        if (!bases) snprintf(why, whylen, "out of memory");
        else rt_case_free(&c);
        free(bases);
        return -1;
    }
    int code = chk_run(&c, o, r, diags);
    r->case_path = ptx_path;     /* it pointed into the case, freed here; the caller's outlives r */
    rt_case_free(&c);
    free(bases);
    return code;
}
