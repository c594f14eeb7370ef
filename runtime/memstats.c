/* memstats.c — shared-memory wavefronts and bank conflicts, global requests
 * and sectors, from the lanes' addresses of each warp-level memory
 * instruction.
 *
 * The VM reports one access per lane, lanes of one issue in increasing lane
 * order; a request ends when the warp, the pc or the direction changes or
 * the lane number does not increase.  Model (checked against Nsight Compute
 * numbers recorded on an H200, conformance mem_* cases):
 *   shared: 32 banks of 4 bytes; lanes are served in phases of 128 bytes
 *           (all 32 lanes for accesses up to 4 bytes, 16 for 8, 8 for 16);
 *           a phase needs as many wavefronts as the largest number of
 *           distinct 4-byte words any bank holds; bank conflicts are the
 *           wavefronts beyond one per phase.
 *   global: one request per instruction; sectors are the distinct 32-byte
 *           sectors its lanes touch (and, for the profiler, L1 tag requests
 *           the distinct 128-byte lines, ideal sectors ceil(bytes / 32)).
 */
#include <string.h>
#include "memstats.h"

#define NBANKS 32
#define SECTOR 32
#define LINE 128

void rt_memstats_init(rt_memstats *s)
{
    memset(s, 0, sizeof *s);
    s->cur_lane = -1;
}

/* Sorts v[0..n) and drops repeated values; returns how many are left.  The
 * lanes' addresses usually come in increasing order or all equal, where the
 * insertion sort is one pass. */
static int sort_unique(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i;
        while (j > 0 && v[j - 1] > x) { v[j] = v[j - 1]; j--; }
        v[j] = x;
    }
    int u = 0;
    for (int i = 0; i < n; i++)
        if (!u || v[i] != v[u - 1]) v[u++] = v[i];
    return u;
}

/* Wavefronts of one shared request: phases of 128 bytes (at most 128 words each). */
static uint64_t shared_wavefronts(const rt_memstats *s, uint64_t *ideal)
{
    int per = s->size[0] <= 4 ? BC_WARP : 128 / s->size[0];
    if (per < 1) per = 1;
    uint64_t total = 0;
    *ideal = 0;
    for (int p0 = 0; p0 < s->cur_n; p0 += per) {
        int pe = p0 + per < s->cur_n ? p0 + per : s->cur_n;
        /* distinct words per bank: a bank's first word inline, any other distinct
         * word of any bank in `more` (empty unless the phase has conflicts) */
        uint64_t first[NBANKS], more[BC_WARP * 4];
        int count[NBANKS] = { 0 }, nmore = 0, worst = 0;
        for (int i = p0; i < pe; i++)
            for (uint64_t a = s->addr[i] & ~3ull; a < s->addr[i] + (uint64_t)s->size[i]; a += 4) {
                int b = (int)((a / 4) % NBANKS), k = 0;
                if (!count[b]) { first[b] = a; count[b] = 1; }
                else if (first[b] != a) {
                    while (k < nmore && more[k] != a) k++;
                    if (k < nmore || nmore == BC_WARP * 4) continue;
                    more[nmore++] = a;
                    count[b]++;
                }
                worst = count[b] > worst ? count[b] : worst;
            }
        total += (uint64_t)worst;
        (*ideal)++;
    }
    return total;
}

/* Distinct blocks of `unit` bytes the request's lanes touch (32: sectors,
 * 128: cache lines, whose count is what Nsight Compute calls L1 tag requests). */
static uint64_t global_blocks(const rt_memstats *s, uint64_t unit)
{
    uint64_t blk[BC_WARP * 4];
    int n = 0;
    for (int i = 0; i < s->cur_n; i++)
        for (uint64_t a = s->addr[i] / unit; a <= (s->addr[i] + (uint64_t)s->size[i] - 1) / unit && n < BC_WARP * 4; a++)
            blk[n++] = a;
    return (uint64_t)sort_unique(blk, n);
}

void rt_memstats_finish(rt_memstats *s)
{
    if (!s->cur_n) return;
    rt_memstats_request q = { .pc = s->cur_pc, .space = s->cur_space, .write = s->cur_write, .lanes = s->cur_n };
    for (int i = 0; i < s->cur_n; i++) q.bytes += (uint64_t)s->size[i];
    if (s->cur_space == BC_SP_SHARED) {
        uint64_t ideal, wf = shared_wavefronts(s, &ideal);
        if (s->cur_write) { s->shared_store_wavefronts += wf; s->shared_store_bank_conflicts += wf - ideal; }
        else { s->shared_load_wavefronts += wf; s->shared_load_bank_conflicts += wf - ideal; }
        q.wavefronts = wf;
        q.wavefronts_ideal = ideal;
    } else if (s->cur_space == BC_SP_GLOBAL) {
        uint64_t sec = global_blocks(s, SECTOR);
        if (s->cur_write) { s->global_store_requests++; s->global_store_sectors += sec; }
        else { s->global_load_requests++; s->global_load_sectors += sec; }
        q.sectors = sec;
        q.sectors_ideal = (q.bytes + SECTOR - 1) / SECTOR;
        q.lines = global_blocks(s, LINE);
    }
    s->cur_n = 0;
    s->cur_lane = -1;
    if (s->on_request && (q.space == BC_SP_SHARED || q.space == BC_SP_GLOBAL)) s->on_request(s->request_ctx, &q);
}

static void on_access(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc,
                      int space, uint64_t addr, int size, int flags)
{
    (void)L; (void)cta;
    rt_memstats *s = ctx;
    int write = (flags & VM_ACC_WRITE) && !(flags & VM_ACC_ATOMIC);
    if (flags & VM_ACC_ATOMIC) write = 0;       /* atomics are neither loads nor stores here */
    if (s->cur_n && (s->cur_warp != w || s->cur_pc != pc || lane <= s->cur_lane || s->cur_space != space ||
                     s->cur_write != write))
        rt_memstats_finish(s);
    if (flags & VM_ACC_ATOMIC) return;
    s->cur_warp = w;
    s->cur_pc = pc;
    s->cur_lane = lane;
    s->cur_space = space;
    s->cur_write = write;
    s->addr[s->cur_n] = addr;
    s->size[s->cur_n] = size;
    s->cur_n++;
}

void rt_memstats_hooks(rt_memstats *s, vm_hooks *h)
{
    memset(h, 0, sizeof *h);
    h->ctx = s;
    h->access = on_access;
}

int rt_memstats_get(const rt_memstats *s, const char *name, uint64_t *value)
{
#define X(n) if (!strcmp(name, #n)) { *value = s->n; return 0; }
    RT_MEMSTATS(X)
#undef X
    return -1;
}
