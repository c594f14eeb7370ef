/* ffilib.c — host functions that tests/vm/ffi/ffi.ptx declares .extern and calls through
 * libffi (ptxemu run ... --load ./libffitest.so).  Built by tests/vm/ffi.sh. */
#include <stdint.h>

int add_ints(int a, int b) { return a + b; }
double mix(double d, float f) { return d * 2.0 + (double)f * 3.0; }
uint64_t hash64(uint64_t x) { return (x * 0xff51afd7ed558ccdull) ^ (x >> 33); }
static long long recorded_sum, recorded_calls;
void record(int v) { recorded_sum += v; recorded_calls++; }
long long recorded(void) { return recorded_sum * 1000 + recorded_calls; }
