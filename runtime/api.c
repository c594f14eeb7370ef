/* api.c — libptxemu's public entry points (ptxemu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptxemu.h"
#include "ast.h"
#include "builtins.h"

/* Reads a whole file; NULL with diag on failure.  Caps at 256 MiB. */
static char *read_file(const char *path, size_t *len, diag_list *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) { diag_add(d, DIAG_ERROR, path, 0, 0, "cannot open file"); return NULL; }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) { fclose(f); diag_add(d, DIAG_ERROR, path, 0, 0, "out of memory"); return NULL; }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
        if (n == cap) {
            if (cap >= ((size_t)256 << 20)) { free(buf); fclose(f); diag_add(d, DIAG_ERROR, path, 0, 0, "file too large"); return NULL; }
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Parses and compiles `text` (taken over: freed on failure unless handed
 * back through text_out). */
static ptxemu_module *load_text(const char *path, char *text, size_t len, diag_list *diags,
                                char **text_out, size_t *len_out)
{
    ast_module *am = ast_parse(path, text, len, diags);
    bc_module *bc = am ? bc_compile(am, diags) : NULL;
    if (!bc) {
        if (am) ast_module_free(am);
        if (text_out) { *text_out = text; *len_out = len; } else free(text);
        return NULL;
    }
    ptxemu_module *m = calloc(1, sizeof *m);
    m->path = strdup(path);
    m->text = text;
    m->len = len;
    m->bc = bc;
    m->ast = am;             /* the bytecode points at the AST's strings */
    bc->path = m->path;
    return m;
}

ptxemu_module *ptxemu_load(const char *path, diag_list *diags, char **text_out, size_t *len_out)
{
    size_t len = 0;
    char *text = read_file(path, &len, diags);
    if (text_out) *text_out = NULL;
    if (!text) return NULL;
    return load_text(path, text, len, diags, text_out, len_out);
}

ptxemu_module *ptxemu_load_text(const char *name, const char *text, size_t len, diag_list *diags)
{
    char *copy = malloc(len + 1);
    if (!copy) { diag_add(diags, DIAG_ERROR, name, 0, 0, "out of memory"); return NULL; }
    memcpy(copy, text, len);
    copy[len] = 0;
    return load_text(name, copy, len, diags, NULL, NULL);
}

void ptxemu_module_free(ptxemu_module *m)
{
    if (!m) return;
    bc_module_free(m->bc);
    ast_module_free(m->ast);
    free(m->text);
    free(m->path);
    free(m);
}

void ptxemu_device_init(ptxemu_device *d)
{
    memset(d, 0, sizeof *d);
    mem_init(&d->mem);
}

void ptxemu_device_destroy(ptxemu_device *d)
{
    mem_destroy(&d->mem);
    free(d->var_addr);
    memset(d, 0, sizeof *d);
}

uint64_t ptxemu_malloc(ptxemu_device *d, uint64_t bytes) { return mem_alloc_bytes(&d->mem, bytes, "ptxemu_malloc"); }
int ptxemu_free(ptxemu_device *d, uint64_t addr) { return mem_free(&d->mem, addr); }
int ptxemu_memcpy_htod(ptxemu_device *d, uint64_t dst, const void *src, uint64_t bytes) { return mem_write(&d->mem, dst, src, bytes); }
int ptxemu_memcpy_dtoh(ptxemu_device *d, void *dst, uint64_t src, uint64_t bytes) { return mem_read(&d->mem, src, dst, bytes); }

vm_status ptxemu_launch(ptxemu_device *d, const ptxemu_module *m, const char *kernel,
                        const vm_config *cfg, vm_fault *fault, uint64_t *insns)
{
    memset(fault, 0, sizeof *fault);
    int k = bc_find_func(m->bc, kernel);
    if (k < 0 || !m->bc->funcs[k].is_entry || m->bc->funcs[k].kind != BC_FN_DEFINED) {
        snprintf(fault->msg, sizeof fault->msg, "no kernel named '%s' in %s", kernel, m->path);
        return fault->status = VM_ERROR;
    }
    if (d->placed != m) {
        free(d->var_addr);
        d->var_addr = NULL;
        if (vm_place_module(m->bc, &d->mem, &d->var_addr, fault->msg, sizeof fault->msg))
            return fault->status = VM_ERROR;
        d->placed = m;
    }
    vm_config c = *cfg;
    if (!c.builtins) c.builtins = &rt_builtins_printf;
    return vm_run(m->bc, &d->mem, d->var_addr, k, &c, fault, insns);
}

int ptxemu_exit_code(vm_status s)
{
    switch (s) {
    case VM_OK: return PTXEMU_EXIT_OK;
    case VM_FAULT: case VM_TRAP: case VM_ASSERT: case VM_ERROR: return PTXEMU_EXIT_FAULT;
    case VM_DEADLOCK: return PTXEMU_EXIT_DEADLOCK;
    case VM_LIMIT: case VM_PAUSED: return PTXEMU_EXIT_LIMIT;
    }
    return PTXEMU_EXIT_FAULT;
}
