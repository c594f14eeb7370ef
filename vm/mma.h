/* mma.h — the warp-wide matrix instructions (tensor cores): fragment layouts of
 * ldmatrix / stmatrix / movmatrix / mma.sync / wmma, and the arithmetic of the
 * matrix multiply-accumulate as an H200 does it (see mma.c for what was measured).
 *
 * The instructions are warp collectives (vm/warp.c): once every live lane has
 * arrived, mma_collective computes all lanes' results from their operands and
 * writes them (registers, or shared/global memory for the stores).  Operand lists
 * live in bc_module.extra at I->x: nd, na, nb, nc, then the slots of d, a, b, c.
 */
#ifndef PTXEMU_MMA_H
#define PTXEMU_MMA_H

#include <stdint.h>
#include "vm.h"

/* shapes (m1 of OP_MMA / OP_WMMA_MMA, n of OP_WMMA_LOAD / OP_WMMA_STORE); wmma takes
 * M16N16K16 (f16, bf16, s8, u8), M16N16K8 (tf32) and M8N8K4 (f64) */
enum { MMA_M16N8K16, MMA_M16N8K8, MMA_M8N8K4, MMA_M16N8K32, MMA_M16N16K16, MMA_M16N16K8 };
/* element types (m2 = atype | btype << 4, m3 = ctype | dtype << 4) */
enum { MMA_T_F16, MMA_T_BF16, MMA_T_TF32, MMA_T_F32, MMA_T_F64, MMA_T_S8, MMA_T_U8, MMA_T_S32 };
/* wmma.load/store matrix (m1 of OP_WMMA_LOAD / OP_WMMA_STORE) */
enum { MMA_FRAG_A, MMA_FRAG_B, MMA_FRAG_C };

typedef struct mma_desc {
    int shape, at, bt, ct, dt;
    int satfinite;
    int a_col, b_row;            /* wmma: A column-major / B row-major (mma.sync: row.col) */
} mma_desc;

/* Registers per lane of each operand (d, a, b, c) for a shape and types; 0 if unsupported. */
int mma_regs(const mma_desc *m, int *nd, int *na, int *nb, int *nc);

/* The multiply-accumulate over the whole warp: a[l][i] is register i of lane l
 * (64-bit registers hold f64).  Pure: used by the VM and by offline checks. */
void mma_compute(const mma_desc *m, uint64_t a[32][8], uint64_t b[32][8], uint64_t c[32][8], uint64_t d[32][8]);

/* Bytes a wmma.load/store of a shape's fragment (MMA_FRAG_*) of a type, with
 * stride ldm (elements), col for a column-major layout, touches from its address. */
uint64_t mma_wmma_extent(int shape, int frag, int type, int col, uint64_t ldm);

/* Completes a matrix collective whose lanes P all wait at their instruction. */
void mma_collective(vm_launch *L, vm_warp *w, uint32_t P);

#endif
