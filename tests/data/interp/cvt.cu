// Conversions and arithmetic corner cases: kernels for tests/test_interp.c.
#include <cuda_fp16.h>

extern "C" __global__ void cvt_round(const float *in, int *oi, float *of, unsigned short *oh)
{
    int t = threadIdx.x;
    float x = in[t];
    oi[t] = __float2int_rn(x);
    oi[32 + t] = __float2int_rz(x);
    oi[64 + t] = __float2int_rd(x);
    oi[96 + t] = __float2int_ru(x);
    oi[128 + t] = (int)(signed char)(t * 37);             // sign extension from 8 bits
    oi[160 + t] = (int)(unsigned short)(t * -3001);       // zero extension from 16 bits
    oi[192 + t] = __float2uint_rz(x);                     // saturates negatives to 0
    of[t] = __int2float_rz(0x7fffffc1 - t);               // 2^31 - 63 - t: not exact in f32
    of[32 + t] = __int2float_ru(0x7fffffc1 - t);
    of[64 + t] = __fdiv_rz(1.0f, 3.0f + t);
    of[96 + t] = rintf(x);
    of[128 + t] = __double2float_rd(1.0 / (3.0 + t));
    oh[t] = __half_as_ushort(__float2half_rn(x * 1000.0f));
    oh[32 + t] = __half_as_ushort(__float2half_rz(x * 1000.0f));
}

extern "C" __global__ void int_ops(const int *in, int *out)
{
    int t = threadIdx.x;
    int a = in[t], b = in[32 + t];
    out[t] = __mulhi(a, b);
    out[32 + t] = a / (b | 1);
    out[64 + t] = a % (b | 1);
    out[96 + t] = __popc(a) + __clz(b);
    out[128 + t] = __brev(a);
    out[160 + t] = __byte_perm(a, b, 0x5140 + t);
    out[192 + t] = (unsigned)a >> (t % 40);
    out[224 + t] = min(a, b) ^ max(a, b) ^ abs(a);
    out[256 + t] = __funnelshift_l(a, b, t);
    out[288 + t] = (int)(((long long)a * b) >> 20);
    out[320 + t] = __ffs(a) + __sad(a, b, 3);
}
