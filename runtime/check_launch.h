/* check_launch.h — the warp-synchronous checker (check.h) on one live launch
 * of a running program (`ptxemu exec --check`), as a case built in memory.
 *
 * A stopgap until the launch-level checker entry point (chk_run_launch) of
 * the checker's own module lands: the launch is described as an rt_case —
 * the module's PTX file, the kernel, its geometry, every pointer parameter
 * that holds the start of a live allocation as a buffer with that
 * allocation's current bytes, other 4- and 8-byte parameters as values — and
 * handed to chk_run, which runs its schedules on copies (the program's own
 * memory is not touched).  What a case cannot describe is refused with the
 * reason: by-value structs and other parameter sizes.  The module's
 * variables start from their PTX initial values (what the program wrote
 * into __device__ or __constant__ variables is not seen), and pointers
 * stored inside buffers do not point into the copies.
 *
 * Ownership: the caller owns everything passed; the result is chk_run's
 * (chk_result_free).
 */
#ifndef PTXEMU_CHECK_LAUNCH_H
#define PTXEMU_CHECK_LAUNCH_H

#include "check.h"

/* Checks kernel `k` of module m (whose PTX text is the file ptx_path)
 * launched with cfg (grid, block, dynamic shared memory, parameter buffer)
 * over the allocations of mem.  Returns chk_run's status, or -1 with why
 * set when the launch cannot be described as a case. */
int chk_launch_via_case(const ptxemu_module *m, const char *ptx_path, int k, const vm_config *cfg,
                        const mem_space *mem, const chk_opts *o, chk_result *r, diag_list *diags,
                        char *why, size_t whylen);

#endif
