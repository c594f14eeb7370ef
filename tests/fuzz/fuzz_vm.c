/* fuzz_vm.c — libFuzzer harness for the VM: the input is PTX text; when it
 * compiles, up to three of its kernels (from one its size picks) are launched on a tiny grid (2 CTAs of
 * 64 threads, 256 bytes of dynamic shared memory) with every pointer
 * parameter pointing at its own zero-filled 256-byte buffer and every other
 * parameter 0, under a low instruction limit and a short time limit.  Seeds
 * are valid modules, so mutations are mostly valid modules with fuzzed
 * instructions and operands.  Whatever the kernel does must end in a
 * vm_status (faults included), never touch host memory outside the VM's
 * own, never crash, leak or trip a sanitizer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"
#include "bc.h"
#include "builtins.h"
#include "diag.h"
#include "mem.h"
#include "vm.h"

enum { FUZZ_KERNELS = 3, FUZZ_BUF = 256, FUZZ_PARAMS = 4096 };

static void run_kernel(const bc_module *bc, int k, int resident)
{
    const bc_func *f = &bc->funcs[k];
    if (f->param_size < 0 || f->param_size > FUZZ_PARAMS) return;
    mem_space mem;
    mem_init(&mem);
    mem.limit = 64u << 20;                 /* fuzzed .global arrays fail cleanly */
    uint64_t *var_addr = NULL;
    char msg[256];
    uint8_t params[FUZZ_PARAMS + 8];
    memset(params, 0, sizeof params);
    if (vm_place_module(bc, &mem, &var_addr, msg, sizeof msg) == 0) {
        for (int i = 0; i < f->nparams; i++) {
            const bc_param *p = &f->params[i];
            if (p->size != 8 || p->offset < 0 || p->offset + 8 > f->param_size) continue;
            uint64_t a = mem_alloc_bytes(&mem, FUZZ_BUF, p->name);
            memcpy(params + p->offset, &a, 8);
        }
        vm_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.grid[0] = 2; cfg.grid[1] = cfg.grid[2] = 1;
        cfg.block[0] = 64; cfg.block[1] = cfg.block[2] = 1;
        cfg.dyn_shared = FUZZ_BUF;
        cfg.params = params;
        cfg.params_size = (size_t)f->param_size;
        cfg.local_size = 1024;
        cfg.insn_limit = 20000;
        cfg.timeout = 0.5;
        cfg.seed = 1;
        cfg.builtins = &rt_builtins_printf;  /* output NULL: printf text dropped */
        cfg.resident = resident;
        vm_fault fault;
        uint64_t insns = 0;
        memset(&fault, 0, sizeof fault);
        vm_run(bc, &mem, var_addr, k, &cfg, &fault, &insns);
        free(fault.report);
    }
    free(var_addr);
    mem_destroy(&mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    diag_list d;
    diag_init(&d);
    ast_module *am = ast_parse("fuzz.ptx", text, size, &d);
    bc_module *bc = am ? bc_compile(am, &d) : NULL;
    if (bc) {
        int resident = (size & 1) ? 2 : 0;    /* both scheduler loops */
        int nk = 0;
        for (int k = 0; k < bc->nfuncs; k++) nk += bc->funcs[k].is_entry && bc->funcs[k].kind == BC_FN_DEFINED;
        /* from a kernel the input's size picks, so seeds with many kernels get each one run */
        int skip = nk ? (int)(size / 2 % (size_t)nk) : 0;
        for (int k = 0, n = 0; k < bc->nfuncs && n < FUZZ_KERNELS; k++) {
            if (!bc->funcs[k].is_entry || bc->funcs[k].kind != BC_FN_DEFINED) continue;
            if (skip > 0) { skip--; continue; }
            run_kernel(bc, k, resident);
            n++;
        }
        bc_module_free(bc);
    }
    if (am) ast_module_free(am);
    diag_list_free(&d);
    free(text);
    return 0;
}
