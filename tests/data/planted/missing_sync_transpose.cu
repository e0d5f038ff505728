/* missing_sync_transpose.cu - planted bug: a tiled transpose that reads the
 * shared tile back without the __syncthreads() that must separate filling it
 * from reading it. Thread (tx,ty) reads tile[tx][ty], which thread (ty,tx) -
 * another warp unless tx == ty - writes: a RAW/WAR race on shared memory.
 * Expected: racecheck hazards between the "planted-write" and "planted-read"
 * lines (tests/test_planted.c; scripts/sanitizer-compare.sh on a GPU). */

/*@warpscope
kernel  missing_sync_transpose
note    Planted bug: the tile is read back with no __syncthreads() after it is filled.
param   N = 64
buffer  in   float  N*N  init=index
buffer  out  float  N*N  init=zero  output
grid    2, 2
block   32, 32
args    in, out, N
*/
__global__ void missing_sync_transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];   /* planted-write */
    /* the missing line: __syncthreads(); */
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];  /* planted-read */
}
