/* pool.c — process-wide caches of freed buffers (the contract: pool.h). */
#include "pool.h"

#define VM_POOLS_MAX 8

static vm_pool *pools[VM_POOLS_MAX];   /* the pools used so far, for the fork handler */
static int npools;
static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t pools_once = PTHREAD_ONCE_INIT;

static void after_fork(void)
{
    pthread_mutex_init(&pools_lock, NULL);
    for (int i = 0; i < npools; i++) {
        pthread_mutex_init(&pools[i]->lock, NULL);
        pools[i]->n = 0;
        pools[i]->bytes = 0;
    }
}

static void init_once(void) { pthread_atfork(NULL, NULL, after_fork); }

/* Makes P known to the fork handler (once). */
static void enrol(vm_pool *P)
{
    if (__atomic_load_n(&P->registered, __ATOMIC_ACQUIRE)) return;
    pthread_once(&pools_once, init_once);
    pthread_mutex_lock(&pools_lock);
    if (!P->registered && npools < VM_POOLS_MAX) pools[npools++] = P;
    __atomic_store_n(&P->registered, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pools_lock);
}

void *vm_pool_take(vm_pool *P, size_t n, int kind)
{
    void *p = NULL;
    enrol(P);
    pthread_mutex_lock(&P->lock);
    for (int i = P->n - 1; i >= 0; i--) {
        if (P->e[i].n != n || P->e[i].kind != kind) continue;
        p = P->e[i].p;
        P->bytes -= n;
        P->e[i] = P->e[--P->n];
        break;
    }
    pthread_mutex_unlock(&P->lock);
    return p;
}

void vm_pool_give(vm_pool *P, void *p, size_t n, int kind)
{
    if (!p) return;
    enrol(P);
    pthread_mutex_lock(&P->lock);
    int keep = P->n < VM_POOL_ENTRIES && P->bytes + n <= P->max_bytes;
    if (keep) {
        P->e[P->n].p = p;
        P->e[P->n].n = n;
        P->e[P->n++].kind = kind;
        P->bytes += n;
    }
    pthread_mutex_unlock(&P->lock);
    if (!keep) P->release(p, n);
}
