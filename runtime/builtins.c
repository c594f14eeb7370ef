/* builtins.c — vm_config's builtin services implemented by the runtime. */
#include "builtins.h"
#include "printf.h"

int rt_vm_printf(vm_read_fn rd, void *rd_ctx, uint64_t fmt, uint64_t args,
                 vm_output_fn out, void *out_ctx, int *ret, char *err, size_t errlen)
{
    rt_strbuf text;
    rt_strbuf_init(&text);
    int r = rt_printf_format(rd, rd_ctx, fmt, args, &text, err, errlen);
    if (r == RT_PRINTF_FAULT) {
        rt_strbuf_free(&text);
        return -1;
    }
    if (text.len && out) out(out_ctx, text.data, text.len);
    rt_strbuf_free(&text);
    *ret = r;
    return 0;
}

int rt_vm_extern_call(void *ctx, const bc_func *f, int nargs, const uint64_t *args,
                      uint64_t *ret, char *err, size_t errlen)
{
    void *fn = ctx ? rt_ffi_lookup(ctx, f->name) : NULL;
    if (!fn) return VM_EXTERN_UNDEFINED;
    rt_ffi_type at[RT_FFI_MAX_ARGS], rt = RT_FFI_VOID;
    if (nargs > RT_FFI_MAX_ARGS) nargs = RT_FFI_MAX_ARGS;
    for (int k = 0; k < nargs; k++)
        if (rt_ffi_type_from_ptx(ast_type_name(f->params[k].type), &at[k])) at[k] = RT_FFI_U64;
    if (f->nrets && rt_ffi_type_from_ptx(ast_type_name(f->rets[0].type), &rt)) rt = RT_FFI_U64;
    return rt_ffi_call(fn, nargs, at, args, rt, ret, err, errlen) ? -1 : 0;
}

void rt_builtins_init(vm_builtins *b, rt_ffi *ffi)
{
    b->device_printf = rt_vm_printf;
    b->extern_call = ffi ? rt_vm_extern_call : NULL;
    b->extern_ctx = ffi;
}

const vm_builtins rt_builtins_printf = { rt_vm_printf, NULL, NULL };
