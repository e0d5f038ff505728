// sregs.cu - special registers and predefined identifiers, for tests/test_exec_call.c:
// what each reads in simulation is documented in docs/interp.md; the test checks
// the values from the launch shape.

#define NSREG 16

__device__ unsigned int sreg32_envreg0() { unsigned int v; asm volatile("mov.u32 %0, %%envreg0;" : "=r"(v)); return v; }

/*@warpscope
kernel  special_registers
buffer  out  ulong  16*128  init=zero  output
grid    2
block   32, 2
shared  256
args    out
*/
__global__ void special_registers(unsigned long long *out)
{
    extern __shared__ int dyn[];
    __shared__ int fixed[10];
    unsigned int t = threadIdx.x + threadIdx.y * blockDim.x, v;
    unsigned long long *o = out + (blockIdx.x * 64 + t) * NSREG, g;
    dyn[t] = (int)t;                   /* both used, so both are allocated */
    fixed[t % 10] = (int)(t % 10);
    o[0] = warpSize;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); o[1] = v;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); o[2] = v;
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(v)); o[3] = v;
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(v)); o[4] = v;
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(v)); o[5] = v;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); o[6] = v;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(v)); o[7] = v;
    o[8] = sreg32_envreg0();
    asm volatile("mov.u32 %0, %%envreg31;" : "=r"(v)); o[9] = v;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v)); o[10] = v;
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v)); o[11] = v;
    unsigned long long c0 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
    unsigned long long c1 = clock64();
    o[12] = c1 - c0;                   /* the clock moves with the instructions run */
    o[13] = g;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); o[14] = v;
    o[15] = (unsigned long long)dyn[t] + fixed[t % 10];
}
