/* warp_sync_softmax.cu - planted bug: a row softmax, one 32-float row per warp, that
 * shares the row through shared memory and assumes the warp runs in lockstep. Lane l
 * stores row[l], then reads row[(l + j) % 32] for j = 1..31 (the max), stores exp(x - max)
 * over row[l] and reads the row again (the sum): no __syncwarp() orders any of it, so a
 * lane may read an element its owner has not stored yet (RAW) or overwrite its own while
 * another lane still reads it (WAR).
 * Expected, per warp: RAW at the max loop (lane l + j's store, lane l's read: 31 x 32) and
 * at the sum loop (31 x 32), WAR at the second store (32: each lane's element was read by
 * the 31 others); warp_sync_softmax_fixed.cu adds the __syncwarp()s and reports nothing. */

/*@warpscope
kernel  warp_sync_softmax
note    Planted bug: a row softmax whose lanes read the row other lanes wrote to shared memory, with no __syncwarp.
param   N = 256
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    4
block   64
args    in, out, N
*/
__global__ void warp_sync_softmax(const float *in, float *out, int n)
{
    __shared__ float row[2][32];             /* one row per warp */
    unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
    unsigned k = (blockIdx.x * 2 + w) * 32 + lane;
    float x = k < (unsigned)n ? in[k] : 0.0f;
    row[w][lane] = x;                        /* planted-write */
    float m = x;
    for (unsigned j = 1; j < 32; j++)
        m = fmaxf(m, row[w][(lane + j) % 32]);   /* planted-read */
    float e = __expf(x - m);
    row[w][lane] = e;                        /* planted-rewrite */
    float sum = 0.0f;
    for (unsigned j = 0; j < 32; j++)
        sum += row[w][(lane + j) % 32];      /* planted-sum */
    if (k < (unsigned)n) out[k] = e / sum;
}
