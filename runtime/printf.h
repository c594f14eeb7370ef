/* printf.h — CUDA device printf (`vprintf(fmt, args)`) formatted on the host.
 *
 * Ownership: an rt_strbuf owns its bytes (rt_strbuf_free releases them);
 * rt_printf_format only appends to the caller's buffer and keeps nothing.
 *
 * Guest memory is only ever read through the caller's rt_mem_read_fn.  The
 * argument buffer is the one the CUDA compiler builds: each argument at its
 * natural alignment (from the buffer's start) in the order of the
 * conversions; int-sized and smaller integers and %c take 4 bytes, l/ll/z/j/t
 * integers, pointers (%s, %p) and all floating conversions (float is
 * promoted to double; L is also taken as double) take 8.  `*` width and
 * precision take an int slot each.  Slots are read lazily, one at a time.
 *
 * Output follows glibc's printf for each conversion (which the CUDA host
 * side matches for the standard conversions), with these choices where the
 * GPU's behaviour is not documented:
 *   - %s of a 0 pointer prints "(null)", then width/precision apply to that
 *     text (so "%.3s" gives "(nu");
 *   - %p prints glibc's form: 0x-prefixed lowercase hex, "(nil)" for 0;
 *   - %lc and %ls are treated as %c and %s (no wide characters on device);
 *   - %n prints nothing and reads its pointer slot (the GPU ignores it);
 *   - an unknown conversion, or a '%' at the end of the format, is copied
 *     to the output as written and consumes no argument.
 * CUDA limits a printf to 32 arguments; that limit is not enforced here.
 */
#ifndef PTXEMU_PRINTF_H
#define PTXEMU_PRINTF_H

#include <stddef.h>
#include <stdint.h>

/* Reads n bytes of guest memory at guest_addr into dst: 0, or -1 (fault). */
typedef int (*rt_mem_read_fn)(void *ctx, uint64_t guest_addr, void *dst,
                              size_t n);

/* A growable byte string.  May hold NUL bytes (%c of 0); data is also
 * NUL-terminated after len whenever data is non-NULL.  Zero-initialise
 * (or rt_strbuf_init) before use. */
typedef struct rt_strbuf {
    char *data;
    size_t len, cap;
} rt_strbuf;

void rt_strbuf_init(rt_strbuf *b);
void rt_strbuf_free(rt_strbuf *b);
/* Appends n bytes: 0, or -1 (out of memory; b unchanged). */
int rt_strbuf_append(rt_strbuf *b, const void *p, size_t n);

/* Longest string one %s (or the format itself) may be; reading runs past it
 * is an error. */
#define RT_PRINTF_MAX_STRING ((size_t)64 << 10)
/* Most output one call may produce. */
#define RT_PRINTF_MAX_OUTPUT ((size_t)1 << 20)

/* Error returns of rt_printf_format. */
enum {
    RT_PRINTF_NULL_FORMAT = -1,  /* fmt_addr is 0: nothing printed; CUDA's
                                    printf returns -1 to the kernel here */
    RT_PRINTF_FAULT       = -2,  /* format, a string or an argument slot was
                                    unreadable (the caller raises a fault) */
    RT_PRINTF_LIMIT       = -3,  /* a string or the output ran past the
                                    limits above */
    RT_PRINTF_NOMEM       = -4,
};

/* Formats one device printf and appends the text to `out`.  Returns the
 * number of argument slots read (what CUDA's printf returns to the kernel),
 * or one of the negative codes above with a message in err (except for
 * RT_PRINTF_NULL_FORMAT).  On an error `out` is left as it was: a call's
 * output is appended whole or not at all. */
int rt_printf_format(rt_mem_read_fn rd, void *ctx, uint64_t fmt_addr,
                     uint64_t args_addr, rt_strbuf *out, char *err,
                     size_t errlen);

#endif
