/* pool.h — process-wide caches of freed buffers, by size and kind, so that
 * the memory one launch used is not unmapped and faulted in again by the
 * next (a launch's CTA slots, vm/sched.c; the checker's shadow pages,
 * runtime/check.c).
 *
 * Ownership: a vm_pool owns the buffers given to it until they are taken
 * again; the buffers it does not keep (over its entry or byte limit) go to
 * its release function.  Thread-safe.  A forked child finds every pool
 * empty (a lock another thread held at the fork would hang it; the pooled
 * memory stays in the child, unused).
 */
#ifndef PTXEMU_POOL_H
#define PTXEMU_POOL_H

#include <pthread.h>
#include <stddef.h>

#define VM_POOL_ENTRIES 256

typedef struct vm_pool {
    size_t max_bytes;                  /* bytes kept at most */
    void (*release)(void *p, size_t n);   /* frees a buffer the pool does not keep */
    pthread_mutex_t lock;              /* guards what follows */
    int registered;                    /* known to the fork handler */
    int n;
    size_t bytes;
    struct { void *p; size_t n; int kind; } e[VM_POOL_ENTRIES];
} vm_pool;

#define VM_POOL_INIT(max_bytes, release) { (max_bytes), (release), PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, { { 0, 0, 0 } } }

/* A buffer of n bytes of the kind given back earlier (contents as they were
 * given), or NULL. */
void *vm_pool_take(vm_pool *P, size_t n, int kind);

/* Keeps buffer p of n bytes for vm_pool_take, or releases it. */
void vm_pool_give(vm_pool *P, void *p, size_t n, int kind);

#endif
