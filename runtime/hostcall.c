/* hostcall.c — dlopen'ed host libraries and libffi calls into them. */
#define _GNU_SOURCE
#include "hostcall.h"
#include <ffi.h>

#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rt_ffi {
    int n;
    void **handles;
    struct link_map **maps;  /* each handle's own object, to reject symbols
                                found in its dependencies */
};

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void rt_ffi_close(rt_ffi *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->n; i++)
        dlclose(f->handles[i]);
    free(f->handles);
    free(f->maps);
    free(f);
}

int rt_ffi_open(rt_ffi **out, const char *const *libs, int nlibs, char *err,
                size_t errlen)
{
    *out = NULL;
    if (nlibs < 0) {
        seterr(err, errlen, "negative library count");
        return -1;
    }
    rt_ffi *f = calloc(1, sizeof *f);
    if (!f || (nlibs && (!(f->handles = calloc((size_t)nlibs, sizeof *f->handles)) ||
                         !(f->maps = calloc((size_t)nlibs, sizeof *f->maps))))) {
        rt_ffi_close(f);
        seterr(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < nlibs; i++) {
        if (!libs[i] || !libs[i][0]) {
            seterr(err, errlen, "cannot load library %d: empty name", i + 1);
            rt_ffi_close(f);
            return -1;
        }
        dlerror();
        void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *why = dlerror();
            seterr(err, errlen, "cannot load library '%s': %s", libs[i],
                   why ? why : "unknown error");
            rt_ffi_close(f);
            return -1;
        }
        f->handles[f->n] = h;
        struct link_map *lm = NULL;
        if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
            const char *why = dlerror();
            f->n++;
            seterr(err, errlen, "cannot inspect library '%s': %s", libs[i],
                   why ? why : "unknown error");
            rt_ffi_close(f);
            return -1;
        }
        f->maps[f->n++] = lm;
    }
    *out = f;
    return 0;
}

void *rt_ffi_lookup(const rt_ffi *f, const char *name)
{
    if (!f || !name)
        return NULL;
    for (int i = 0; i < f->n; i++) {
        dlerror();
        void *p = dlsym(f->handles[i], name);
        if (!p)
            continue;
        Dl_info info;
        struct link_map *lm = NULL;
        if (dladdr1(p, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm == f->maps[i])
            return p;
    }
    return NULL;
}

static ffi_type *ffi_of(rt_ffi_type t)
{
    switch (t) {
    case RT_FFI_VOID: return &ffi_type_void;
    case RT_FFI_S8:   return &ffi_type_sint8;
    case RT_FFI_U8:   return &ffi_type_uint8;
    case RT_FFI_S16:  return &ffi_type_sint16;
    case RT_FFI_U16:  return &ffi_type_uint16;
    case RT_FFI_S32:  return &ffi_type_sint32;
    case RT_FFI_U32:  return &ffi_type_uint32;
    case RT_FFI_S64:  return &ffi_type_sint64;
    case RT_FFI_U64:  return &ffi_type_uint64;
    case RT_FFI_F32:  return &ffi_type_float;
    case RT_FFI_F64:  return &ffi_type_double;
    case RT_FFI_PTR:  return &ffi_type_pointer;
    }
    return NULL;
}

typedef union slot {
    int8_t s8; uint8_t u8; int16_t s16; uint16_t u16;
    int32_t s32; uint32_t u32; int64_t s64; uint64_t u64;
    float f32; double f64; void *ptr;
    ffi_arg ret;             /* libffi widens small integer results */
} slot;

int rt_ffi_call(void *fn, int nargs, const rt_ffi_type *argtypes,
                const uint64_t *argbits, rt_ffi_type rettype,
                uint64_t *retbits, char *err, size_t errlen)
{
    if (!fn) {
        seterr(err, errlen, "call through a NULL function pointer");
        return -1;
    }
    if (nargs < 0 || nargs > RT_FFI_MAX_ARGS) {
        seterr(err, errlen, "%d arguments (at most %d)", nargs,
               RT_FFI_MAX_ARGS);
        return -1;
    }
    ffi_type *types[RT_FFI_MAX_ARGS];
    slot vals[RT_FFI_MAX_ARGS];
    void *ptrs[RT_FFI_MAX_ARGS];
    for (int i = 0; i < nargs; i++) {
        rt_ffi_type t = argtypes[i];
        types[i] = ffi_of(t);
        if (!types[i] || t == RT_FFI_VOID) {
            seterr(err, errlen, "argument %d: invalid type %d", i + 1, (int)t);
            return -1;
        }
        uint64_t b = argbits[i];
        slot *v = &vals[i];
        memset(v, 0, sizeof *v);
        switch (t) {
        case RT_FFI_S8:  v->s8 = (int8_t)(uint8_t)b; break;
        case RT_FFI_U8:  v->u8 = (uint8_t)b; break;
        case RT_FFI_S16: v->s16 = (int16_t)(uint16_t)b; break;
        case RT_FFI_U16: v->u16 = (uint16_t)b; break;
        case RT_FFI_S32: v->s32 = (int32_t)(uint32_t)b; break;
        case RT_FFI_U32: v->u32 = (uint32_t)b; break;
        case RT_FFI_S64: v->s64 = (int64_t)b; break;
        case RT_FFI_U64: v->u64 = b; break;
        case RT_FFI_F32: { uint32_t w = (uint32_t)b; memcpy(&v->f32, &w, sizeof w); break; }
        case RT_FFI_F64: memcpy(&v->f64, &b, sizeof b); break;
        case RT_FFI_PTR: v->ptr = (void *)(uintptr_t)b; break;
        case RT_FFI_VOID: break;
        }
        ptrs[i] = v;
    }
    ffi_type *rt = ffi_of(rettype);
    if (!rt) {
        seterr(err, errlen, "invalid return type %d", (int)rettype);
        return -1;
    }
    ffi_cif cif;
    ffi_status st = ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)nargs, rt,
                                 types);
    if (st != FFI_OK) {
        seterr(err, errlen, "libffi cannot prepare this signature (status %d)",
               (int)st);
        return -1;
    }
    slot r;
    memset(&r, 0, sizeof r);
    ffi_call(&cif, FFI_FN(fn), &r, nargs ? ptrs : NULL);
    uint64_t out = 0;
    switch (rettype) {
    case RT_FFI_VOID: break;
    case RT_FFI_S8:  out = (uint64_t)(int64_t)(int8_t)r.ret; break;
    case RT_FFI_U8:  out = (uint8_t)r.ret; break;
    case RT_FFI_S16: out = (uint64_t)(int64_t)(int16_t)r.ret; break;
    case RT_FFI_U16: out = (uint16_t)r.ret; break;
    case RT_FFI_S32: out = (uint64_t)(int64_t)(int32_t)r.ret; break;
    case RT_FFI_U32: out = (uint32_t)r.ret; break;
    case RT_FFI_S64: out = (uint64_t)r.s64; break;
    case RT_FFI_U64: out = r.u64; break;
    case RT_FFI_F32: { uint32_t w; memcpy(&w, &r.f32, sizeof w); out = w; break; }
    case RT_FFI_F64: memcpy(&out, &r.f64, sizeof out); break;
    case RT_FFI_PTR: out = (uint64_t)(uintptr_t)r.ptr; break;
    }
    if (retbits)
        *retbits = out;
    return 0;
}

static const struct { const char *name; rt_ffi_type t; } ptx_types[] = {
    { "b8", RT_FFI_U8 },   { "u8", RT_FFI_U8 },   { "s8", RT_FFI_S8 },
    { "b16", RT_FFI_U16 }, { "u16", RT_FFI_U16 }, { "s16", RT_FFI_S16 },
    { "b32", RT_FFI_U32 }, { "u32", RT_FFI_U32 }, { "s32", RT_FFI_S32 },
    { "b64", RT_FFI_U64 }, { "u64", RT_FFI_U64 }, { "s64", RT_FFI_S64 },
    { "f32", RT_FFI_F32 }, { "f64", RT_FFI_F64 },
};

int rt_ffi_type_from_ptx(const char *ptx_type, rt_ffi_type *out)
{
    if (!ptx_type)
        return -1;
    if (ptx_type[0] == '.')
        ptx_type++;
    for (size_t i = 0; i < sizeof ptx_types / sizeof ptx_types[0]; i++)
        if (strcmp(ptx_type, ptx_types[i].name) == 0) {
            *out = ptx_types[i].t;
            return 0;
        }
    return -1;
}

const char *rt_ffi_type_name(rt_ffi_type t)
{
    static const char *const names[] = {
        [RT_FFI_VOID] = "void", [RT_FFI_S8] = "s8", [RT_FFI_U8] = "u8",
        [RT_FFI_S16] = "s16", [RT_FFI_U16] = "u16", [RT_FFI_S32] = "s32",
        [RT_FFI_U32] = "u32", [RT_FFI_S64] = "s64", [RT_FFI_U64] = "u64",
        [RT_FFI_F32] = "f32", [RT_FFI_F64] = "f64", [RT_FFI_PTR] = "ptr",
    };
    return (int)t >= 0 && (size_t)t < sizeof names / sizeof names[0]
           ? names[t] : "?";
}
