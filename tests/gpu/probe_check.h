/* probe_check.h - CHECK(x) for the standalone probes (coalesce, l2dram, l2req, local): a CUDA runtime
 * call that fails prints file, line, the call and its error, and exits 1. */
#ifndef PROBE_CHECK_H
#define PROBE_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#endif
