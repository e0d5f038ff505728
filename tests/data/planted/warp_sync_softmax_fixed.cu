/* warp_sync_softmax_fixed.cu - the fixed twin of warp_sync_softmax.cu: a __syncwarp()
 * after the row is stored (its reads follow every lane's store), one before each lane
 * overwrites its element (every lane has read the row) and one after (the sum reads the
 * new row).
 * Expected: no hazard at all (warpscope and compute-sanitizer racecheck: 0 hazards). */

/*@warpscope
kernel  warp_sync_softmax_fixed
note    Not a bug: the row softmax with __syncwarp() between the row's stores and reads.
param   N = 256
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    4
block   64
args    in, out, N
*/
__global__ void warp_sync_softmax_fixed(const float *in, float *out, int n)
{
    __shared__ float row[2][32];             /* one row per warp */
    unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
    unsigned k = (blockIdx.x * 2 + w) * 32 + lane;
    float x = k < (unsigned)n ? in[k] : 0.0f;
    row[w][lane] = x;
    __syncwarp();
    float m = x;
    for (unsigned j = 1; j < 32; j++)
        m = fmaxf(m, row[w][(lane + j) % 32]);   /* planted-read */
    float e = __expf(x - m);
    __syncwarp();
    row[w][lane] = e;
    __syncwarp();
    float sum = 0.0f;
    for (unsigned j = 0; j < 32; j++)
        sum += row[w][(lane + j) % 32];
    if (k < (unsigned)n) out[k] = e / sum;
}
