/* ffi_testlib.c — host functions for test_ffi, built as a shared library. */
#include <stdint.h>
#include <string.h>

int add_int(int a, int b) { return a + b; }
double mix_df(double a, float b) { return a * (double)b; }
uint64_t sum_bytes(void *p, uint32_t n)
{
    uint64_t s = 0;
    const uint8_t *b = p;
    for (uint32_t i = 0; i < n; i++)
        s += b[i];
    return s;
}
static int last;
void set_last(int v) { last = v; }
int get_last(void) { return last; }
float halve_f(float x) { return x / 2; }
signed char neg_s8(signed char x) { return (signed char)-x; }
unsigned short inc_u16(unsigned short x) { return (unsigned short)(x + 1); }
int64_t many(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e,
             uint32_t f, int64_t g, uint64_t h, float i, double j)
{
    return a + b + c + d + e + (int64_t)f + g + (int64_t)h + (int64_t)i +
           (int64_t)j;
}
/* resolves to libc's strlen: lookup must not hand out libc's functions */
size_t uses_strlen(const char *s) { return strlen(s); }
