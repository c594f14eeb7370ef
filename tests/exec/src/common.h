// common.h — shared by the tests/exec programs: print a CUDA call's result
// (code and name) instead of stopping, so the output shows what the GPU does.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>
#define SHOW(call) do { cudaError_t e_ = (call); printf("%-40s -> %d %s\n", #call, (int)e_, cudaGetErrorName(e_)); } while (0)
#define QUIET(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) printf("line %d: %s -> %d %s\n", __LINE__, #call, (int)e_, cudaGetErrorName(e_)); } while (0)
