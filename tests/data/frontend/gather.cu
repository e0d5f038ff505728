// gather.cu - buffers given as the host program gives them: values from a raw file, indices
// from a NumPy .npy, and indices from a seeded permutation or from an LCG written out in
// docs/description-format.md so host code can produce the same sequence.
//   gather_src.bin  64 float32, little-endian: 100 + k
//   gather_idx.npy  NumPy 1.0, '<i4', shape (64,): (5 * k) % 64

/*@warpscope
kernel  gather_files
entry   gather
param   N = 64
buffer  src  float  N  init=file(gather_src.bin)
buffer  idx  int    N  init=file(gather_idx.npy)
buffer  out  float  N  output
grid    1
block   N
args    src, idx, out, N
*/

/*@warpscope
kernel  gather_perm
entry   gather
param   N = 64
buffer  src  float  N  init=file(gather_src.bin)
buffer  idx  int    N  init=perm(11)
buffer  out  float  N  output
grid    1
block   N
args    src, idx, out, N
*/

/*@warpscope
kernel  gather_lcg
entry   gather
param   N = 64
buffer  src  float  N  init=file(gather_src.bin)
buffer  idx  int    N  init=lcg(7, 1103515245, 12345, 1 << 31, 0, N)
buffer  out  float  N  output
grid    1
block   N
args    src, idx, out, N
*/
__global__ void gather(const float *src, const int *idx, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = src[idx[i]];
}
