// readme.cu - the example of README.md's "Describing a kernel" (test_ptxgen checks that the
// README shows this file's text and that it runs): a template instantiation, a buffer read
// from a NumPy file, and a CUDA header, compiled by NVRTC with the toolkit's include path.
//   readme_weights.npy  NumPy 1.0, '<f4', shape (64,): 0.5 + k / 128
#include <cuda_fp16.h>

/*@warpscope
kernel  scale_rows<128>
note    Scale each row of a half matrix by a weight from a NumPy file; one block per row.
param   ROWS = 64
buffer  w    float  ROWS        init=file(readme_weights.npy)
buffer  m    half   ROWS * 128  init=random(1, -1, 1)
buffer  out  float  ROWS * 128  output
grid    ROWS
block   128
args    w, m, out
*/
template <int COLS>
__global__ void scale_rows(const float *w, const __half *m, float *out)
{
    int r = blockIdx.x, c = threadIdx.x;
    out[r * COLS + c] = w[r] * __half2float(m[r * COLS + c]);
}
