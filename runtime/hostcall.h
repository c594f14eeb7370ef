/* hostcall.h — host C functions behind a module's `.extern .func` declarations,
 * called through libffi from the libraries named with `--load`.
 *
 * Ownership: an rt_ffi owns its dlopen handles; rt_ffi_close unloads them,
 * after which every function pointer rt_ffi_lookup returned is invalid.
 *
 * Lookup sees only symbols defined in the named libraries themselves: not
 * the process, not libc, not the libraries' own dependencies, so a kernel
 * cannot reach arbitrary host code.  Calls build their ffi_cif on each call
 * (ffi_prep_cif is cheap next to the interpreter); nothing is cached.
 */
#ifndef PTXEMU_HOSTCALL_H
#define PTXEMU_HOSTCALL_H

#include <stddef.h>
#include <stdint.h>

typedef struct rt_ffi rt_ffi;

typedef enum rt_ffi_type {
    RT_FFI_VOID,             /* return type only */
    RT_FFI_S8, RT_FFI_U8,
    RT_FFI_S16, RT_FFI_U16,
    RT_FFI_S32, RT_FFI_U32,
    RT_FFI_S64, RT_FFI_U64,
    RT_FFI_F32, RT_FFI_F64,
    RT_FFI_PTR,              /* a host pointer, already translated */
} rt_ffi_type;

/* Most arguments rt_ffi_call takes. */
#define RT_FFI_MAX_ARGS 64

/* dlopens each of libs[0..nlibs) with RTLD_NOW | RTLD_LOCAL (a name without
 * '/' goes through the usual library search).  0 with *out set, or -1 with
 * *out NULL and a message naming the library in err. */
int rt_ffi_open(rt_ffi **out, const char *const *libs, int nlibs, char *err,
                size_t errlen);
void rt_ffi_close(rt_ffi *f);

/* The host address of `name` from the first library (in --load order) that
 * defines it, or NULL. */
void *rt_ffi_lookup(const rt_ffi *f, const char *name);

/* Calls fn(args...).  argbits[i] holds argument i's raw bits: integers in
 * the low bits (the rest ignored), F32 as its bit pattern in the low 32
 * bits, F64 as its bit pattern, PTR as the host address.  *retbits gets the
 * result: signed types sign-extended to 64 bits, unsigned zero-extended, F32
 * bits in the low 32 bits, 0 for RT_FFI_VOID (retbits may be NULL then).
 * Returns 0, or -1 with a message (bad type, too many arguments, libffi
 * refusing the signature); it cannot detect a call that does not match the
 * host function's real signature. */
int rt_ffi_call(void *fn, int nargs, const rt_ffi_type *argtypes,
                const uint64_t *argbits, rt_ffi_type rettype,
                uint64_t *retbits, char *err, size_t errlen);

/* Maps a PTX parameter type ("u32" or ".u32"; b/u/s 8..64, f32, f64) to an
 * rt_ffi_type: b and u are unsigned, s signed.  0, or -1 for types with no
 * C equivalent (f16, bf16, pred, vectors...). */
int rt_ffi_type_from_ptx(const char *ptx_type, rt_ffi_type *out);

/* "s32", "f64", "ptr", "void"... for messages. */
const char *rt_ffi_type_name(rt_ffi_type t);

#endif
