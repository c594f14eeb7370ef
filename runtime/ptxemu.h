/* ptxemu.h — the public interface of libptxemu: load PTX, manage device
 * memory, launch kernels, read results and diagnostics.  The command-line
 * tools, the checker and the debugger are built on it.
 *
 * Ownership: a ptxemu_module owns its source text, AST-free bytecode and
 * diagnostics; a ptxemu_device owns its global memory.  A module may be
 * launched on any device; it is placed (its .global data allocated) on a
 * device at its first launch there.  Nothing here prints or exits.
 */
#ifndef PTXEMU_H
#define PTXEMU_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "bc.h"
#include "mem.h"
#include "vm.h"

/* Exit statuses shared by every ptxemu command. */
enum {
    PTXEMU_EXIT_OK = 0,
    PTXEMU_EXIT_MISMATCH = 1,     /* expectation mismatch, or checker findings */
    PTXEMU_EXIT_USAGE = 2,        /* usage or launch-file error */
    PTXEMU_EXIT_PTX = 3,          /* PTX error */
    PTXEMU_EXIT_FAULT = 4,        /* trap, assert, illegal address, unsupported at run time */
    PTXEMU_EXIT_DEADLOCK = 5,
    PTXEMU_EXIT_LIMIT = 6         /* --timeout or instruction budget */
};

typedef struct ptxemu_module {
    char *path;
    char *text;                   /* the .ptx source (for diagnostics) */
    size_t len;
    bc_module *bc;
    struct ast_module *ast;       /* kept: the bytecode points at its strings */
} ptxemu_module;

typedef struct ptxemu_device {
    mem_space mem;
    const ptxemu_module *placed;  /* module whose variables are placed */
    uint64_t *var_addr;
} ptxemu_device;

/* Reads, parses and compiles a .ptx file.  On error returns NULL; diags
 * holds the messages (positions refer to the returned *text_out, which the
 * caller frees, so it can render carets even on failure). */
ptxemu_module *ptxemu_load(const char *path, diag_list *diags, char **text_out, size_t *len_out);
/* The same from PTX text in memory (copied); `name` stands for the file in
 * messages. */
ptxemu_module *ptxemu_load_text(const char *name, const char *text, size_t len, diag_list *diags);
void ptxemu_module_free(ptxemu_module *m);

void ptxemu_device_init(ptxemu_device *d);
void ptxemu_device_destroy(ptxemu_device *d);

/* Device memory, like cudaMalloc/cudaMemcpy/cudaFree: guest addresses in,
 * 0 or -1 out (a copy outside one live allocation fails). */
uint64_t ptxemu_malloc(ptxemu_device *d, uint64_t bytes);
int ptxemu_free(ptxemu_device *d, uint64_t addr);
int ptxemu_memcpy_htod(ptxemu_device *d, uint64_t dst, const void *src, uint64_t bytes);
int ptxemu_memcpy_dtoh(ptxemu_device *d, void *dst, uint64_t src, uint64_t bytes);

/* Launches `kernel` of m on d.  cfg->params is the parameter buffer laid
 * out as the kernel's .param list says (see ptxemu_param_layout).  A cfg
 * without builtins gets the runtime's device printf (its text goes to
 * cfg->output) and no `.extern` functions (see builtins.h). */
vm_status ptxemu_launch(ptxemu_device *d, const ptxemu_module *m, const char *kernel,
                        const vm_config *cfg, vm_fault *fault, uint64_t *insns);

/* The exit status for a launch status. */
int ptxemu_exit_code(vm_status s);

#endif
