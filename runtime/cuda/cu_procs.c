/* cu_procs.c — the cuGetProcAddress table: (name, version, per-thread
 * stream) to entry point, from procs.def; names not in it are looked up
 * among all entry points (syms.def).  Kept apart from the implementations:
 * this file declares every entry point without its prototype. */
#include <string.h>

void (*cu_find_proc(const char *name, int version, int ptds, int *too_old))(void);
/* cu_stubs.c: the stub for a graphics-interop entry point */
void cu_unknown_entry(void);

/* Every driver entry point exists (weak stubs in cu_stubs.c). */
#define CU_SYM(s) extern void s(void);
#include "syms.def"
#undef CU_SYM

typedef struct { const char *name; int version, flags; void (*fn)(void); } cu_proc;

static const cu_proc procs[] = {
#define CU_PROC(n, v, f, s) { #n, v, f, s },
#include "procs.def"
#undef CU_PROC
};

static const struct { const char *name; void (*fn)(void); } syms[] = {
#define CU_SYM(s) { #s, s },
#include "syms.def"
#undef CU_SYM
};

enum { CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2 };

/* The entry with the highest version not above `version`, preferring the
 * per-thread-stream variant when asked for it. */
void (*cu_find_proc(const char *name, int version, int ptds, int *too_old))(void)
{
    const cu_proc *best = NULL, *best_pt = NULL;
    int known = 0;
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        const cu_proc *p = &procs[i];
        if (strcmp(p->name, name)) continue;
        known = 1;
        if (p->version > version) continue;
        if (p->flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) {
            if (!best_pt || p->version >= best_pt->version) best_pt = p;
        } else if (!best || p->version >= best->version) best = p;
    }
    *too_old = known && !best && !best_pt;
    if (ptds && best_pt) return best_pt->fn;
    if (best) return best->fn;
    if (known) return NULL;
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (!strcmp(syms[i].name, name)) return syms[i].fn;
    /* graphics interop (GL, EGL, VDPAU), which the driver library always
     * has: the runtime takes a missing one for a too-old driver */
    static const char *const interop[] = { "cuGL", "cuEGL", "cuVDPAU", "cuGraphicsGL", "cuGraphicsEGL",
                                           "cuGraphicsVDPAU", "cuGraphicsResourceGetMappedEgl" };
    for (size_t i = 0; i < sizeof interop / sizeof interop[0]; i++)
        if (!strncmp(name, interop[i], strlen(interop[i]))) return cu_unknown_entry;
    return NULL;
}

