/* mem.c — checked global allocations in the guest address space. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mem.h"

void mem_init(mem_space *s)
{
    memset(s, 0, sizeof *s);
    s->next = MEM_GLOBAL_BASE;
}

void mem_destroy(mem_space *s)
{
    for (int i = 0; i < s->n; i++) free(s->allocs[i].host);
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
    uint8_t *host = calloc(1, n ? n : 1);
    if (!host) return 0;
    uint64_t base = s->next;
    s->next = (base + (n ? n : 1) + MEM_GUARD_GAP + MEM_ALLOC_ALIGN - 1) & ~(uint64_t)(MEM_ALLOC_ALIGN - 1);
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
        free(s->allocs[i].host);
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
