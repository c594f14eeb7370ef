/* test_ffi.c — loading host libraries and calling through libffi.
 * argv[1]: the test library; argv[2]: a scratch directory. */
#include "hostcall.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t f32bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t f64bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static double bitsf64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static float bitsf32(uint64_t b) { uint32_t w = (uint32_t)b; float f; memcpy(&f, &w, 4); return f; }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_ffi LIB DIR\n");
        return 2;
    }
    char err[512] = "";
    rt_ffi *f;
    const char *libs[] = { argv[1] };
    int rc = rt_ffi_open(&f, libs, 1, err, sizeof err);
    CHECK(rc == 0 && f, "open test library", "%s", err);
    if (rc)
        return 1;

    uint64_t ret = 0;
    void *fn = rt_ffi_lookup(f, "add_int");
    rt_ffi_type t_ii[] = { RT_FFI_S32, RT_FFI_S32 };
    uint64_t a_ii[] = { (uint32_t)-5, 0xffffffff00000003ull };   /* high bits ignored */
    rc = rt_ffi_call(fn, 2, t_ii, a_ii, RT_FFI_S32, &ret, err, sizeof err);
    CHECK(fn && rc == 0 && ret == (uint64_t)-2, "int(int,int)", "rc %d ret %llx %s",
          rc, (unsigned long long)ret, err);

    fn = rt_ffi_lookup(f, "mix_df");
    rt_ffi_type t_df[] = { RT_FFI_F64, RT_FFI_F32 };
    uint64_t a_df[] = { f64bits(1.5), f32bits(-2.25f) };
    rc = rt_ffi_call(fn, 2, t_df, a_df, RT_FFI_F64, &ret, err, sizeof err);
    CHECK(fn && rc == 0 && bitsf64(ret) == -3.375, "double(double,float)",
          "rc %d ret %g %s", rc, bitsf64(ret), err);

    uint8_t bytes[5] = { 1, 2, 3, 250, 100 };
    fn = rt_ffi_lookup(f, "sum_bytes");
    rt_ffi_type t_pu[] = { RT_FFI_PTR, RT_FFI_U32 };
    uint64_t a_pu[] = { (uint64_t)(uintptr_t)bytes, 5 };
    rc = rt_ffi_call(fn, 2, t_pu, a_pu, RT_FFI_U64, &ret, err, sizeof err);
    CHECK(fn && rc == 0 && ret == 356, "uint64_t(void*,uint32_t)", "rc %d ret %llu %s",
          rc, (unsigned long long)ret, err);

    fn = rt_ffi_lookup(f, "set_last");
    rt_ffi_type t_i[] = { RT_FFI_S32 };
    uint64_t a_i[] = { 77 };
    ret = 123;
    rc = rt_ffi_call(fn, 1, t_i, a_i, RT_FFI_VOID, &ret, err, sizeof err);
    void *get = rt_ffi_lookup(f, "get_last");
    uint64_t got = 0;
    int rc2 = rt_ffi_call(get, 0, NULL, NULL, RT_FFI_S32, &got, err, sizeof err);
    CHECK(fn && get && rc == 0 && rc2 == 0 && ret == 0 && got == 77,
          "void(int) then int(void)", "rc %d/%d got %llu %s", rc, rc2,
          (unsigned long long)got, err);
    rc = rt_ffi_call(fn, 1, t_i, a_i, RT_FFI_VOID, NULL, err, sizeof err);
    CHECK(rc == 0, "void return with NULL retbits", "%s", err);

    fn = rt_ffi_lookup(f, "halve_f");
    rt_ffi_type t_f[] = { RT_FFI_F32 };
    uint64_t a_f[] = { f32bits(5.0f) };
    rc = rt_ffi_call(fn, 1, t_f, a_f, RT_FFI_F32, &ret, err, sizeof err);
    CHECK(rc == 0 && ret >> 32 == 0 && bitsf32(ret) == 2.5f, "float(float)",
          "rc %d ret %llx", rc, (unsigned long long)ret);

    fn = rt_ffi_lookup(f, "neg_s8");
    rt_ffi_type t_s8[] = { RT_FFI_S8 };
    uint64_t a_s8[] = { 5 };
    rc = rt_ffi_call(fn, 1, t_s8, a_s8, RT_FFI_S8, &ret, err, sizeof err);
    CHECK(rc == 0 && ret == (uint64_t)-5, "s8 sign extension", "ret %llx",
          (unsigned long long)ret);

    fn = rt_ffi_lookup(f, "inc_u16");
    rt_ffi_type t_u16[] = { RT_FFI_U16 };
    uint64_t a_u16[] = { 0xffff };
    rc = rt_ffi_call(fn, 1, t_u16, a_u16, RT_FFI_U16, &ret, err, sizeof err);
    CHECK(rc == 0 && ret == 0, "u16 wraps, zero-extended", "ret %llx",
          (unsigned long long)ret);

    fn = rt_ffi_lookup(f, "many");
    rt_ffi_type t_m[] = { RT_FFI_S8, RT_FFI_U8, RT_FFI_S16, RT_FFI_U16, RT_FFI_S32,
                          RT_FFI_U32, RT_FFI_S64, RT_FFI_U64, RT_FFI_F32, RT_FFI_F64 };
    uint64_t a_m[] = { 0xff /* -1 */, 0x1ff /* 255 */, 0xfffe /* -2 */, 1000,
                       (uint32_t)-100000, 4000000000u, (uint64_t)-5000000000LL,
                       7, f32bits(3.5f), f64bits(-10.9) };
    rc = rt_ffi_call(fn, 10, t_m, a_m, RT_FFI_S64, &ret, err, sizeof err);
    int64_t want = -1 + 255 - 2 + 1000 - 100000 + 4000000000LL - 5000000000LL + 7 + 3 - 10;
    CHECK(rc == 0 && (int64_t)ret == want, "ten mixed arguments",
          "ret %lld want %lld", (long long)ret, (long long)want);

    CHECK(rt_ffi_lookup(f, "no_such_function") == NULL, "missing symbol", "found");
    CHECK(rt_ffi_lookup(f, "strlen") == NULL && rt_ffi_lookup(f, "printf") == NULL &&
              rt_ffi_lookup(f, "malloc") == NULL,
          "libc symbols are not reachable", "found a libc symbol");
    CHECK(rt_ffi_lookup(f, "rt_ffi_lookup") == NULL,
          "process symbols are not reachable", "found");

    rc = rt_ffi_call(NULL, 0, NULL, NULL, RT_FFI_VOID, NULL, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "NULL"), "NULL function", "%s", err);
    rt_ffi_type bad[] = { RT_FFI_VOID };
    uint64_t zero[1] = { 0 };
    rc = rt_ffi_call(get, 1, bad, zero, RT_FFI_S32, &ret, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "argument 1"), "void argument type", "%s", err);
    rc = rt_ffi_call(get, 0, NULL, NULL, (rt_ffi_type)42, &ret, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "return type"), "bad return type", "%s", err);
    rc = rt_ffi_call(get, RT_FFI_MAX_ARGS + 1, NULL, NULL, RT_FFI_S32, &ret,
                     err, sizeof err);
    CHECK(rc == -1 && strstr(err, "at most"), "too many arguments", "%s", err);
    rt_ffi_close(f);

    /* a missing library: error names it; nothing leaks */
    const char *libs2[] = { argv[1], "/nonexistent/libnope.so" };
    f = (rt_ffi *)1;
    rc = rt_ffi_open(&f, libs2, 2, err, sizeof err);
    CHECK(rc == -1 && f == NULL && strstr(err, "cannot load library "
                                               "'/nonexistent/libnope.so'"),
          "missing library", "rc %d: %s", rc, err);

    /* a file that is not a library */
    char path[512];
    snprintf(path, sizeof path, "%s/notalib.so", argv[2]);
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs("garbage\n", fp);
        fclose(fp);
    }
    rc = rt_ffi_open(&f, (const char *const[]){ path }, 1, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "notalib.so"), "not a library", "%s", err);

    rc = rt_ffi_open(&f, NULL, 0, err, sizeof err);
    CHECK(rc == 0 && rt_ffi_lookup(f, "malloc") == NULL, "no libraries",
          "%s", err);
    rt_ffi_close(f);

    rt_ffi_type t;
    CHECK(rt_ffi_type_from_ptx("u32", &t) == 0 && t == RT_FFI_U32 &&
              rt_ffi_type_from_ptx(".b32", &t) == 0 && t == RT_FFI_U32 &&
              rt_ffi_type_from_ptx(".s32", &t) == 0 && t == RT_FFI_S32 &&
              rt_ffi_type_from_ptx(".f32", &t) == 0 && t == RT_FFI_F32 &&
              rt_ffi_type_from_ptx(".b64", &t) == 0 && t == RT_FFI_U64 &&
              rt_ffi_type_from_ptx(".s64", &t) == 0 && t == RT_FFI_S64 &&
              rt_ffi_type_from_ptx(".f64", &t) == 0 && t == RT_FFI_F64 &&
              rt_ffi_type_from_ptx(".b8", &t) == 0 && t == RT_FFI_U8 &&
              rt_ffi_type_from_ptx(".s8", &t) == 0 && t == RT_FFI_S8 &&
              rt_ffi_type_from_ptx(".b16", &t) == 0 && t == RT_FFI_U16 &&
              rt_ffi_type_from_ptx(".f16", &t) == -1 &&
              rt_ffi_type_from_ptx(".pred", &t) == -1 &&
              rt_ffi_type_from_ptx("", &t) == -1,
          "ptx type mapping", "wrong");
    CHECK(strcmp(rt_ffi_type_name(RT_FFI_PTR), "ptr") == 0 &&
              strcmp(rt_ffi_type_name((rt_ffi_type)99), "?") == 0,
          "type names", "wrong");
    return t_failed ? 1 : 0;
}
