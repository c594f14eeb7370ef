/* mem.c — checked global allocations in the guest address space. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mem.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

void mem_init(mem_space *s)
{
    memset(s, 0, sizeof *s);
    s->next = MEM_GLOBAL_BASE;
}

void mem_init_host_mapped(mem_space *s)
{
    mem_init(s);
    s->host_mapped = 1;
    s->next = MEM_HOST_MAPPED_BASE;
}

static uint64_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (uint64_t)p : 4096u;
}

/* Host storage of n bytes for an allocation at guest address *base (a
 * host-mapped space may move *base past a range something else holds). */
static uint8_t *host_storage(mem_space *s, uint64_t *base, uint64_t n)
{
    if (!s->host_mapped) return calloc(1, n ? n : 1);
    uint64_t pg = page_size(), len = ((n ? n : 1) + pg - 1) & ~(pg - 1);
    for (int tries = 0; tries < 64 && *base + len <= MEM_HOST_MAPPED_END; tries++) {
        void *p = mmap((void *)(uintptr_t)*base, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
        if (p == (void *)(uintptr_t)*base) return p;
        if (p != MAP_FAILED) munmap(p, len);     /* an old kernel ignored the hint */
        *base += len + (1ull << 30);             /* taken: skip ahead */
    }
    return NULL;
}

#define MEM_PREFAULT_MIN (256u << 10)   /* smaller ranges: a few faults, or already in the heap */

void mem_prefault(const mem_space *s, uint64_t addr, uint64_t n)
{
    uint8_t *p = n >= MEM_PREFAULT_MIN ? mem_xlate(s, addr, n) : NULL;
    if (!p) return;
    uintptr_t pg = page_size(), lo = ((uintptr_t)p + pg - 1) & ~(pg - 1), hi = ((uintptr_t)p + n) & ~(pg - 1);
    if (hi <= lo) return;
#ifdef MADV_HUGEPAGE
    madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);   /* before 5.14: the writes fault them in */
#endif
}

static void host_release(mem_space *s, mem_alloc *a)
{
    if (!s->host_mapped) { free(a->host); return; }
    uint64_t pg = page_size();
    if (a->host) munmap(a->host, ((a->size ? a->size : 1) + pg - 1) & ~(pg - 1));
}

void mem_destroy(mem_space *s)
{
    for (int i = 0; i < s->n; i++) if (s->allocs[i].live) host_release(s, &s->allocs[i]);
    free(s->allocs);
    memset(s, 0, sizeof *s);
}

uint64_t mem_alloc_bytes(mem_space *s, uint64_t n, const char *name)
{
    if (n > MEM_MAX_ALLOC || (s->limit && s->total + n > s->limit)) return 0;
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 16;
        mem_alloc *na = realloc(s->allocs, (size_t)nc * sizeof *na);
        if (!na) return 0;
        s->allocs = na;
        s->cap = nc;
    }
    uint64_t base = s->next;
    uint8_t *host = host_storage(s, &base, n);
    if (!host) return 0;
    uint64_t align = s->host_mapped ? page_size() : MEM_ALLOC_ALIGN;
    s->next = (base + (n ? n : 1) + MEM_GUARD_GAP + align - 1) & ~(align - 1);
    mem_alloc a = { base, n, host, name, 1 };
    s->allocs[s->n++] = a;             /* bases only grow: the array stays sorted */
    s->total += n;
    return base;
}

int mem_free(mem_space *s, uint64_t addr)
{
    for (int i = 0; i < s->n; i++) {
        if (s->allocs[i].base != addr || !s->allocs[i].live) continue;
        s->allocs[i].live = 0;
        host_release(s, &s->allocs[i]);
        s->allocs[i].host = NULL;
        s->total -= s->allocs[i].size;
        return 0;
    }
    return -1;
}

int mem_find(const mem_space *s, uint64_t addr, uint64_t n)
{
    int lo = 0, hi = s->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const mem_alloc *a = &s->allocs[mid];
        if (addr < a->base) hi = mid - 1;
        else if (addr - a->base >= (a->size ? a->size : 1)) lo = mid + 1;
        else {
            if (!a->live || n > a->size || addr - a->base > a->size - n) return -1;
            return mid;
        }
    }
    return -1;
}

int mem_write(mem_space *s, uint64_t addr, const void *src, uint64_t n)
{
    uint8_t *p = n ? mem_xlate(s, addr, n) : NULL;
    if (n && !p) return -1;
    if (n) memcpy(p, src, n);
    return 0;
}

int mem_read(const mem_space *s, uint64_t addr, void *dst, uint64_t n)
{
    uint8_t *p = n ? mem_xlate(s, addr, n) : NULL;
    if (n && !p) return -1;
    if (n) memcpy(dst, p, n);
    return 0;
}

void mem_describe(const mem_space *s, uint64_t addr, char *buf, size_t len)
{
    const mem_alloc *best = NULL;
    for (int i = 0; i < s->n; i++) {
        const mem_alloc *a = &s->allocs[i];
        if (a->base <= addr) best = a;
    }
    if (addr == 0) { snprintf(buf, len, "0x0 (null pointer)"); return; }
    if (best && addr - best->base < best->size + MEM_GUARD_GAP) {
        uint64_t off = addr - best->base;
        if (!best->live)
            snprintf(buf, len, "0x%" PRIx64 " (inside freed allocation '%s')", addr, best->name ? best->name : "?");
        else if (off >= best->size)
            snprintf(buf, len, "0x%" PRIx64 " (%" PRIu64 " bytes past the end of '%s', %" PRIu64 " bytes at 0x%" PRIx64 ")",
                     addr, off - best->size, best->name ? best->name : "?", best->size, best->base);
        else
            snprintf(buf, len, "0x%" PRIx64 " (offset %" PRIu64 " of '%s', %" PRIu64 " bytes at 0x%" PRIx64 ")",
                     addr, off, best->name ? best->name : "?", best->size, best->base);
        return;
    }
    snprintf(buf, len, "0x%" PRIx64 " (not in any allocation)", addr);
}
