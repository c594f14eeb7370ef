/* util.h — small containers shared by the compiler and the VM: growable
 * arrays and a string-keyed hash map.
 *
 * Ownership: a container owns its storage (freed with its *_free call); a
 * strmap does not own its keys, which must outlive it. */
#ifndef PTXEMU_UTIL_H
#define PTXEMU_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Grows *v (of *cap elements of size esz) to hold at least n; 0 or -1. */
static inline int util_grow(void **v, size_t *cap, size_t n, size_t esz)
{
    if (n <= *cap) return 0;
    size_t c = *cap ? *cap : 16;
    while (c < n) c *= 2;
    void *p = realloc(*v, c * esz);
    if (!p) return -1;
    *v = p;
    *cap = c;
    return 0;
}

/* VEC(T): a growable array; VEC_PUSH returns the new element's index. */
#define VEC(T) struct { T *v; size_t n, cap; }
#define VEC_RESERVE(a, k) util_grow((void **)&(a).v, &(a).cap, (a).n + (k), sizeof *(a).v)
#define VEC_PUSH(a, x) (VEC_RESERVE(a, 1) ? (abort(), 0) : ((a).v[(a).n] = (x), (int)(a).n++))
#define VEC_FREE(a) (free((a).v), (a).v = NULL, (a).n = (a).cap = 0)

/* String -> int map, open addressing; keys are borrowed. */
typedef struct strmap {
    const char **keys;
    int *vals;
    size_t cap, n;
} strmap;

static inline uint64_t util_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ull; }
    return h;
}

/* Returns a pointer to the value slot of key, or NULL if absent. */
static inline int *strmap_get(const strmap *m, const char *k)
{
    if (!m->cap) return NULL;
    for (size_t i = util_hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) return NULL;
        if (!strcmp(m->keys[i], k)) return &m->vals[i];
    }
}

/* Sets key to val (replacing); 0 or -1 on allocation failure. */
static inline int strmap_put(strmap *m, const char *k, int val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        const char **nk = calloc(nc, sizeof *nk);
        int *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) { free(nk); free(nv); return -1; }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i]) continue;
            size_t j = util_hash(m->keys[i]) & (nc - 1);
            while (nk[j]) j = (j + 1) & (nc - 1);
            nk[j] = m->keys[i];
            nv[j] = m->vals[i];
        }
        free(m->keys); free(m->vals);
        m->keys = nk; m->vals = nv; m->cap = nc;
    }
    size_t i = util_hash(k) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], k)) i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) { m->keys[i] = k; m->n++; }
    m->vals[i] = val;
    return 0;
}

static inline void strmap_free(strmap *m)
{
    free(m->keys); free(m->vals);
    memset(m, 0, sizeof *m);
}

#endif
