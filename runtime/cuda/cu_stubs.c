/* cu_stubs.c — every driver entry point ptxemu does not implement: a weak
 * definition that names itself once on stderr and returns
 * CUDA_ERROR_NOT_SUPPORTED (the real implementations in the other files
 * are strong definitions and take precedence at link time). */
/* no cu.h: this file defines the entry points without their prototypes */
typedef int CUresult;
CUresult cu_unsupported(const char *name);

#define CU_SYM(s) __attribute__((weak, visibility("default"))) CUresult s(void); \
    CUresult s(void) { return cu_unsupported(#s); }
#include "syms.def"
#undef CU_SYM

/* The graphics-interop entry points (GL, EGL, VDPAU) cuGetProcAddress hands out. */
CUresult cu_unknown_entry(void) { return cu_unsupported("graphics interop (GL/EGL/VDPAU)"); }
