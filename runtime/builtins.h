/* builtins.h — the runtime's side of the VM's builtin services
 * (vm_config.builtins): device printf formatted by printf.c, `.extern` host
 * calls made through libffi by hostcall.c.
 *
 * Ownership: a vm_builtins filled by rt_builtins_init borrows the rt_ffi,
 * which the caller keeps open (and the vm_builtins alive) for as long as the
 * launch runs.
 */
#ifndef PTXEMU_BUILTINS_H
#define PTXEMU_BUILTINS_H

#include "vm.h"
#include "hostcall.h"

/* Fills b: device_printf = rt_vm_printf and, with ffi non-NULL,
 * extern_call = rt_vm_extern_call over ffi (else no extern function is
 * defined). */
void rt_builtins_init(vm_builtins *b, rt_ffi *ffi);

/* Device printf only (no `.extern` functions). */
extern const vm_builtins rt_builtins_printf;

/* A vm_printf_fn: rt_printf_format, the text written through out in one
 * piece.  Only unreadable guest memory is an error; the other failures of
 * rt_printf_format print nothing and return their code to the kernel. */
int rt_vm_printf(vm_read_fn rd, void *rd_ctx, uint64_t fmt, uint64_t args,
                 vm_output_fn out, void *out_ctx, int *ret, char *err, size_t errlen);

/* A vm_extern_fn over ctx, an rt_ffi: argument and return types from f's
 * PTX declaration (types with no C equivalent pass as u64). */
int rt_vm_extern_call(void *ctx, const bc_func *f, int nargs, const uint64_t *args,
                      uint64_t *ret, char *err, size_t errlen);

#endif
