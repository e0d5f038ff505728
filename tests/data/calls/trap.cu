// trap.cu - instructions that stop a kernel (__trap(), __brkpt()) and ones that only
// order or wait (__nanosleep, fences, pmevent), for tests/test_exec_call.c.

/*@warpscope
kernel  trap_on_lane
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
__global__ void trap_on_lane(int *out)
{
    int t = threadIdx.x;
    out[t] = t;
    if (t == 37)
        __trap();
}

/*@warpscope
kernel  breakpoint
buffer  out  int  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void breakpoint(int *out)
{
    out[threadIdx.x] = 1;
    if (threadIdx.x == 3)
        __brkpt();
}

/*@warpscope
kernel  waits_and_fences
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
__global__ void waits_and_fences(int *out)
{
    int t = threadIdx.x;
    out[t] = t;
    __nanosleep(100);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    asm volatile("fence.proxy.alias;" ::: "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("membar.sys;" ::: "memory");
    asm volatile("pmevent 1;");
    out[t] += 1000;
}
