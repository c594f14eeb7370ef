// Device printf: every conversion and flag/width/precision form, 64-bit integers, chars,
// strings (long ones too), and output from several threads in a fixed order (threads take
// turns, separated by __syncthreads, so the output order is deterministic).
#include <cstdio>

__device__ const char long_str[] =
    "The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz "
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ !#$&'()*+,-./:;<=>?@[]^_`{|}~ -- this line is long on purpose.";

// grid 1, block 64. params: i = -42, f = 3.14159, d = -2.5e-3, s = 12345678901
extern "C" __global__ void printf_formats(int i, float f, double d, long long s) {
    unsigned u = (unsigned)i;
    if (threadIdx.x == 0) {
        printf("ints: %d %i %u %x %X %o\n", i, i, u, u, u, 511);
        printf("chars: [%c%c%c] str=[%s] empty=[%s]\n", 'P', 'T', 'X', "emu", "");
        printf("floats: %f %e %g %E %G\n", f, f, f, d, d);
        printf("more g: %g %g %g %g %G\n", 1e-5, 123456789.0, 100000.0, 0.0001, 1e20);
        printf("hexfloat: %a %A\n", 1.0, -0.375);
        printf("64-bit: %lld %llu %llx %llX %lli\n", s, (unsigned long long)-s, s, (unsigned long long)-1LL, -s);
        printf("width: [%5d] [%-5d] [%05d] [%+d] [%+d] [% d]\n", 42, 42, 42, 42, -42, 42);
        printf("prec: [%.3f] [%10.4e] [%-10.2f] [%.0f] [%#.0f] [%.10g]\n", f, d, f, 2.5, 2.5, 1.0 / 3.0);
        printf("misc: %% [%8s] [%-8s] [%.2s] [%#x] [%#o] [%x]\n", "abc", "abc", "abcdef", 255, 8, 0);
        printf("special: %f %f %f %e %g\n", __int_as_float(0x7f800000), -__int_as_float(0x7f800000),
               __int_as_float(0x7fc00000), 0.0, -0.0);
        printf("limits: %d %d %u %lld %llu\n", 2147483647, (int)0x80000000, 4294967295u,
               (long long)0x8000000000000000ULL, 18446744073709551615ULL);
        printf("long: %s\n", long_str);
        printf("many args: %d %d %d %d %d %d %d %d %d %d %d %d %f %s %c\n",
               1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0.5, "x", 'y');
        printf("no newline at end|");
        printf("|second part\n");
        printf("ptr-width: [%*d] [%-*d] [%.*f]\n", 6, 7, 6, 7, 2, 3.14159);
    }
    __syncthreads();
    // threads take turns: one printf per thread, in thread order, for threads 0, 5, 10, ...
    for (int t = 0; t < (int)blockDim.x; t += 5) {
        if ((int)threadIdx.x == t)
            printf("thread %2d: tid*f=%.2f hex=%08x lane=%d warp=%d\n", t, t * f, t * 0x11111111u, t % 32, t / 32);
        __syncthreads();
    }
    // one whole warp prints once, lanes in order on the hardware? (not relied upon: only lane 7)
    if (threadIdx.x == 7) printf("done %s %d\n", "lane", 7);
}
