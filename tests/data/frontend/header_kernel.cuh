// header_kernel.cuh - a kernel defined in a header, as libraries ship them. Its lines are
// this file's lines, and per-line tables must show them.
#pragma once

__device__ inline float twice(float x) { return 2.0f * x; }

__global__ void from_header(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = twice(in[i]);          // the load and the store of this line
}
