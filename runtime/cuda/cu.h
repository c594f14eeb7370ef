/* cu.h — ptxemu's stand-in for NVIDIA's driver library (libcuda.so.1):
 * the driver ABI it serves and the state behind it.
 *
 * Ownership: one process-wide cu_state owns the emulated device (its
 * host-mapped guest memory, where guest address == host address), the
 * contexts, modules, streams and events; handles given to the program are
 * pointers to these objects.  Kernels run synchronously inside the launch
 * call; a fault becomes the context's sticky error, as on the GPU.
 *
 * This is the one part of ptxemu that prints on its own: it stands for the
 * driver, which writes device printf output to the process's stdout and
 * its own diagnostics (faults, unsupported entry points) to stderr.  The
 * `ptxemu exec` parent reads what it writes to PTXEMU_EXEC_REPORT.
 */
#ifndef PTXEMU_CU_H
#define PTXEMU_CU_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include "ptxemu.h"

/* ---- the driver ABI (values from CUDA 13's cuda.h) ------------------------ */
typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct cu_ctx *CUcontext;
typedef struct cu_module *CUmodule;
typedef struct cu_func *CUfunction;
typedef struct cu_stream *CUstream;
typedef struct cu_event *CUevent;
typedef struct cu_link *CUlinkState;
typedef struct { unsigned char bytes[16]; } CUuuid;

enum {
    CUDA_SUCCESS = 0,
#define CU_ERR(n, v) n = v,
#include "errors.def"
#undef CU_ERR
};

#define CU_LAUNCH_PARAM_END_AS_INT 0
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 1
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT 2

enum {                                     /* CUfunction_attribute */
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4, CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_FUNC_ATTRIBUTE_MAX = 20
};

enum {                                     /* CUlaunchAttributeID (the ones read) */
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
};
typedef struct {
    int id;
    char pad[4];
    union { char pad[64]; int cooperative; struct { unsigned x, y, z; } dim; } value;
} CUlaunchAttribute;
typedef struct {
    unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned numAttrs;
} CUlaunchConfig;

enum {                                     /* CUmemorytype */
    CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4
};

/* Device properties of the emulated sm_90 device (a single H100-class GPU). */
#define CU_DEVICE_NAME "ptxemu sm_90 (NVIDIA H100 80GB HBM3)"
#define CU_DEVICE_TOTAL_MEM (80ull << 30)
#define CU_MAX_THREADS_PER_BLOCK 1024u
#define CU_MAX_BLOCK_Z 64u
#define CU_MAX_GRID_X 2147483647u
#define CU_MAX_GRID_YZ 65535u
#define CU_SHARED_PER_BLOCK 49152u          /* without opting in */
#define CU_SHARED_PER_BLOCK_OPTIN 232448u   /* cudaFuncAttributeMaxDynamicSharedMemorySize limit */
#define CU_SHARED_PER_SM 233472u
#define CU_REGS_PER_SM 65536u
#define CU_THREADS_PER_SM 2048u
#define CU_BLOCKS_PER_SM 32u
#define CU_SM_COUNT 132
#define CU_DRIVER_VERSION 13000

/* ---- state ------------------------------------------------------------------ */
typedef struct cu_module {
    ptxemu_module *pm;
    uint64_t *var_addr;          /* placed .global variables */
    struct cu_func *funcs;       /* one per kernel (entry) */
    int nfuncs;
    int is_library;
    struct cu_module *next;
} cu_module;

typedef struct cu_func {
    uint32_t magic;
    cu_module *mod;
    int index;                   /* in mod->pm->bc->funcs */
    int max_dyn_shared;          /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    int carveout;                /* preferred shared-memory carveout, percent (0: none set) */
    int carveout_set;
    uint64_t static_shared;      /* bytes of .shared the kernel (and what it calls) uses */
    struct prof_profile *prof;   /* --profile: its launches' counters so far, or NULL */
    uint64_t prof_launches;
    double insns_per_thread;     /* of its last launch (lane-instructions / threads), 0: none yet */
    int work_varies;             /* a launch expected small was not: no more guesses from the last one */
    double rate[2];              /* lane-instructions/s of its last large launch asked to run on one
                                    thread [0] and on several [1]; 0: not measured */
    unsigned since_probe;        /* launches since the slower way was last measured again */
    unsigned large_seen;         /* launches long enough to time (the first is not timed) */
} cu_func;

#define CU_FUNC_MAGIC 0x70746b66u

typedef struct cu_ctx {
    uint32_t magic;
    CUdevice dev;
    unsigned flags;
    int primary;
    int destroyed;
    void *cls_mgr, *cls_state;   /* cudart's context-local storage (export table) */
    void (*cls_dtor)(CUcontext, void *, void *);
    size_t limits[8];
} cu_ctx;
#define CU_CTX_MAGIC 0x70746378u

typedef struct cu_stream { uint32_t magic; unsigned flags; int priority; cu_ctx *ctx; uint64_t id; } cu_stream;
typedef struct cu_event { uint32_t magic; unsigned flags; double t; int recorded; } cu_event;
#define CU_STREAM_MAGIC 0x70747374u
#define CU_EVENT_MAGIC 0x70746576u

typedef struct cu_state {
    pthread_mutex_t lock;
    int initialized;
    mem_space mem;               /* host-mapped: guest address == host address */
    cu_module *modules;
    cu_ctx primary;
    int primary_refs;
    CUresult sticky;             /* error that poisons the device after a kernel fault */
    char *printf_buf;            /* device printf output not yet flushed */
    size_t printf_len, printf_cap;
    uint64_t launches;           /* kernel launches so far (sequence numbers) */
    int trace;                   /* PTXEMU_CUDA_TRACE */
    double timeout;              /* PTXEMU_EXEC_TIMEOUT, seconds per launch */
    int check;                   /* PTXEMU_EXEC_CHECK */
    int jobs;
    FILE *report;                /* PTXEMU_EXEC_REPORT */
    char *profile_dir;           /* PTXEMU_EXEC_PROFILE: where per-kernel profiles go, or NULL */
    int faults;
    uint64_t next_stream_id;
} cu_state;

extern cu_state cu_g;

/* Takes the global lock and initialises on first use. */
void cu_lock(void);
void cu_unlock(void);
/* Writes pending device printf output to stdout (a synchronisation point). */
void cu_flush_printf(void);
/* Prints "ptxemu: NAME is not supported by ptxemu" once per name. */
CUresult cu_unsupported(const char *name);
void cu_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether [p, p+n) lies in device/managed/pinned memory or a module's
 * constant bank (a valid target for copies and memsets). */
int cu_valid_range(uint64_t p, uint64_t n);
cu_ctx *cu_current_ctx(void);
/* --profile (cu_profile.c): the hooks that count f's launch into its
 * profile (-1: not profiling); after the launch, cu_profile_done; when the
 * module goes (unload, exit), cu_profile_write writes and frees its profiles. */
int cu_profile_hooks(cu_func *f, vm_hooks *h);
void cu_profile_done(cu_func *f);
void cu_profile_write(cu_module *m);
/* Report lines for the exec parent ("fault ...", "finding ..."). */
void cu_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Entry points other files call. */
CUresult cuModuleLoadData(CUmodule *m, const void *image);
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice d);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned flags, CUdevice d);
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d);
CUresult cuCtxSynchronize(void);
CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d);

enum { CU_ATTR_PCI_BUS_ID = 33, CU_ATTR_PCI_DEVICE_ID = 34, CU_ATTR_PCI_DOMAIN_ID = 50 };

#endif
