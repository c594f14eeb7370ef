/* mem.h — the guest's global memory: checked allocations in a guest address
 * space, plus the fixed windows of generic addressing.
 *
 * Ownership: a mem_space owns every allocation's host storage; guest code
 * only ever holds guest addresses, which mem_xlate turns into host pointers
 * after checking that [addr, addr+n) lies inside one live allocation.
 */
#ifndef PTXEMU_MEM_H
#define PTXEMU_MEM_H

#include <stddef.h>
#include <stdint.h>

/* Generic address windows.  Global allocations start at MEM_GLOBAL_BASE;
 * the shared, local, const and param spaces each appear in the generic
 * space at a fixed window base (their own addresses are offsets). */
#define MEM_GLOBAL_BASE   0x00007f0000000000ull
#define MEM_SHARED_WINDOW 0x00007e0000000000ull
#define MEM_LOCAL_WINDOW  0x00007d0000000000ull
#define MEM_CONST_WINDOW  0x00007c0000000000ull
#define MEM_PARAM_WINDOW  0x00007b0000000000ull
#define MEM_WINDOW_SIZE   0x0000010000000000ull
#define MEM_ALLOC_ALIGN   256u               /* like cudaMalloc */
#define MEM_GUARD_GAP     4096u              /* unmapped bytes between allocations */
#define MEM_MAX_ALLOC     ((uint64_t)1 << 36)

typedef struct mem_alloc {
    uint64_t base, size;
    uint8_t *host;
    const char *name;          /* buffer or variable name, for messages */
    int live;
} mem_alloc;

typedef struct mem_space {
    mem_alloc *allocs;         /* sorted by base */
    int n, cap;
    uint64_t next;             /* next free guest address */
    uint64_t total;            /* live bytes */
    uint64_t limit;            /* cap on total (0: none) */
    int host_mapped;           /* guest address == host address (mem_init_host_mapped) */
} mem_space;

/* The region where a host-mapped space places its allocations: far above
 * the program, its heap and its libraries, below the generic windows. */
#define MEM_HOST_MAPPED_BASE 0x0000200000000000ull
#define MEM_HOST_MAPPED_END  0x0000300000000000ull

void mem_init(mem_space *s);
/* A space whose allocations are mapped at their guest address in this
 * process (page-aligned, an unmapped guard page after each), so host code
 * can use guest pointers directly (`ptxemu exec`: device, managed and
 * pinned memory).  Addresses start at MEM_HOST_MAPPED_BASE. */
void mem_init_host_mapped(mem_space *s);
void mem_destroy(mem_space *s);
/* Allocates n zeroed bytes; returns the guest address or 0 on failure. */
uint64_t mem_alloc_bytes(mem_space *s, uint64_t n, const char *name);
/* Frees the allocation starting exactly at addr; -1 if there is none. */
int mem_free(mem_space *s, uint64_t addr);
/* Index of the live allocation holding [addr, addr+n), or -1. */
int mem_find(const mem_space *s, uint64_t addr, uint64_t n);
/* Host pointer for [addr, addr+n) inside one live allocation, or NULL. */
static inline uint8_t *mem_xlate(const mem_space *s, uint64_t addr, uint64_t n)
{
    int i = mem_find(s, addr, n);
    return i < 0 ? NULL : s->allocs[i].host + (addr - s->allocs[i].base);
}
/* Maps the host pages of [addr, addr+n) now, in huge pages where the host
 * gives them, for a caller about to write all of it (a case's buffers):
 * one call instead of a page fault per 4 KB.  Small ranges are left alone. */
void mem_prefault(const mem_space *s, uint64_t addr, uint64_t n);
/* Copies between host and guest; -1 if the range is not inside one live
 * allocation. */
int mem_write(mem_space *s, uint64_t addr, const void *src, uint64_t n);
int mem_read(const mem_space *s, uint64_t addr, void *dst, uint64_t n);
/* Describes addr for a fault message: "0x... (4 bytes past the end of 'out',
 * 1536 bytes at 0x...)" or "0x... (not in any allocation)". */
void mem_describe(const mem_space *s, uint64_t addr, char *buf, size_t len);

#endif
