/* casefile.h — conformance case files (`case.txt`): a kernel launch, its
 * buffers and parameters, and what the result must be.
 *
 * Ownership: an rt_case owns every string and byte array reachable from it
 * (file buffers and expected files are read in by rt_case_parse); only
 * rt_case_free releases them.
 *
 * Format: /work/shared/conformance/README.md, "Case file format".  Paths in
 * the struct are already resolved against the case file's directory.
 */
#ifndef PTXEMU_CASEFILE_H
#define PTXEMU_CASEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"

/* Upper bound on one buffer's size (declared or file size); larger is an
 * error, not an allocation attempt. */
#define RT_CASE_MAX_BUFFER_BYTES ((size_t)1 << 30)

typedef enum rt_case_buf_kind {
    RT_CASE_BUF_FILE,        /* initial bytes read from `path` */
    RT_CASE_BUF_ZERO,
    RT_CASE_BUF_FILL,        /* every byte `fill` */
} rt_case_buf_kind;

typedef struct rt_case_buffer {
    char *name;
    rt_case_buf_kind kind;
    char *path;              /* RT_CASE_BUF_FILE only, else NULL */
    size_t size;
    uint8_t fill;            /* RT_CASE_BUF_FILL only, else 0 */
    uint8_t *data;           /* RT_CASE_BUF_FILE: the `size` file bytes (NULL
                                when size is 0); other kinds: NULL */
} rt_case_buffer;

typedef enum rt_case_param_kind {
    RT_CASE_PARAM_PTR,       /* `buffer` is the buffer index */
    RT_CASE_PARAM_U32,
    RT_CASE_PARAM_S32,
    RT_CASE_PARAM_U64,
    RT_CASE_PARAM_S64,
    RT_CASE_PARAM_F32,
    RT_CASE_PARAM_F64,
} rt_case_param_kind;

typedef struct rt_case_param {
    rt_case_param_kind kind;
    int buffer;              /* PTR: index into rt_case.buffers; else -1 */
    uint64_t bits;           /* the raw value, zero-extended: 32-bit kinds
                                (F32 included) in the low 32 bits; PTR: 0 */
} rt_case_param;

typedef struct rt_case_expect {
    int buffer;              /* index into rt_case.buffers */
    char *path;
    uint8_t *data;           /* the expected file's bytes (NULL when empty) */
    size_t size;
    bool close;              /* expect-close: compare with rt_compare_close */
    bool is_f64;             /* close only: f64 elements, else f32 */
    double rel, abs;         /* close only */
} rt_case_expect;

typedef enum rt_case_status {
    RT_CASE_STATUS_OK,
    RT_CASE_STATUS_DEADLOCK,
    RT_CASE_STATUS_TRAP,
    RT_CASE_STATUS_ASSERT,
    RT_CASE_STATUS_FAULT,
} rt_case_status;

/* Checker finding kinds, as bits of rt_case.check_kinds. */
enum {
    RT_CHECK_RACE     = 1u << 0,
    RT_CHECK_DEADLOCK = 1u << 1,
    RT_CHECK_MASK     = 1u << 2,
    RT_CHECK_BARRIER  = 1u << 3,
    RT_CHECK_MEMORY   = 1u << 4,
    RT_CHECK_UNINIT   = 1u << 5,
    RT_CHECK_SCHEDULE = 1u << 6,
};

typedef struct rt_case_stat {
    char *name;              /* one of the README's expect-stat names */
    uint64_t value;
} rt_case_stat;

typedef struct rt_case {
    char *case_path;         /* the case file as given */
    char *ptx_path;
    char *kernel;
    uint32_t grid[3], block[3];
    uint32_t shared_bytes;   /* dynamic shared memory; 0 when not given */

    rt_case_buffer *buffers; int nbuffers;
    rt_case_param *params;   int nparams;
    rt_case_expect *expects; int nexpects;

    char *stdout_path;       /* expect-stdout, NULL when absent */
    uint8_t *stdout_data;    /* its bytes (NULL when empty or absent) */
    size_t stdout_size;

    rt_case_status status;   /* RT_CASE_STATUS_OK when not given */
    bool has_status;         /* an expect-status line was given */

    /* expect-check: has_check false = no line (the checker must report
     * nothing); check_kinds 0 with has_check = `clean`. */
    bool has_check;
    unsigned check_kinds;

    rt_case_stat *stats; int nstats;
} rt_case;

/* Parses `path` into *c (always initialised, so rt_case_free is safe after
 * failure).  Every problem is added to `d` as `path:line: message` (line 0
 * for whole-file problems such as a missing `kernel`); parsing goes on after
 * an error to report several.  Returns 0, or -1 when any error was added. */
int rt_case_parse(const char *path, rt_case *c, diag_list *d);
void rt_case_free(rt_case *c);

/* Writes the buffer's b->size initial bytes to dst. */
void rt_case_buffer_init(const rt_case_buffer *b, void *dst);

/* Size in bytes of a parameter as passed to the kernel (PTR: 8). */
size_t rt_case_param_size(const rt_case_param *p);

/* "ok", "deadlock", ...; "race", "deadlock", ... for one RT_CHECK_ bit. */
const char *rt_case_status_name(rt_case_status s);
const char *rt_check_kind_name(unsigned bit);

/* Compares a buffer with its expected bytes.  Returns 0 when equal; else
 * writes e.g. "1536 bytes, first difference at byte 260 (element 65 as
 * u32): got 0x00000003, want 0x00000007" (or a size mismatch) to msg and
 * returns 1.  elem_size (1, 2, 4 or 8; anything else is taken as 1) only
 * chooses how the differing element is shown, read little-endian.  The
 * caller prefixes the buffer name. */
int rt_compare_bytes(const void *got, size_t gotlen, const void *want,
                     size_t wantlen, size_t elem_size, char *msg,
                     size_t msglen);

/* Compares n f32 (is_f64 false) or f64 elements: element i passes when
 * |got-want| <= max(rel*|want|, abs), a NaN matches any NaN and an infinity
 * only the same infinity.  Returns 0 when all pass, else 1 with the first
 * failing element, both values and the tolerance in msg.  The arrays need
 * no particular alignment. */
int rt_compare_close(const void *got, const void *want, size_t n,
                     bool is_f64, double rel, double abs, char *msg,
                     size_t msglen);

#endif
