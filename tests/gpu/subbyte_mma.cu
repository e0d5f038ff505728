/* subbyte_mma.cu - the sub-byte mma.sync forms of tests/data/tensor/tensor.cu's subbyte_mma (the
 * CPU tests' kernel) as a description, so `warpscope check -D FORM=f tests/gpu/subbyte_mma.cu:subbyte_mma`
 * runs each on a GPU against the simulator, random A and B words, the output compared bit for bit:
 *   FORM 0 m16n8k64 s4.s4, 1 m16n8k64 u4.s4, 2 m16n8k256 b1 .and.popc, 3 m16n8k256 b1 .xor.popc,
 *        4 m8n8k32 s4.u4, 5 m8n8k128 b1 .xor.popc, 6 m16n8k32 u4.u4, 7 m16n8k128 b1 .and.popc.
 * and `-D FORM=f ...:wmma_subbyte` the wmma forms (FORM 0 s4, 1 u4 m8n8k32; 2 b1 XOR, 3 b1 AND m8n8k128).
 * sm_90 has none of these on its tensor cores: ptxas emulates them (IMMA on s8, BMMA .and.popc),
 * which is what this checks the simulator's fragment layouts and sums against. */

/*@warpscope
kernel  subbyte_mma
note    One warp's sub-byte mma.sync (s4/u4, b1) on random fragments, D to d.
param   FORM = 0
buffer  a  uint  128  init=random(11, 0, 4294967296)
buffer  b  uint  64   init=random(12, 0, 4294967296)
buffer  d  uint  128  init=zero  output
grid    1
block   32
args    a, b, d, FORM
*/
/*@warpscope
kernel  wmma_subbyte
note    One warp's sub-byte wmma (nvcuda::wmma::experimental s4, u4, b1 XOR / AND) on random matrices, D to d.
param   FORM = 0
buffer  a  uint  32  init=random(13, 0, 4294967296)
buffer  b  uint  32  init=random(14, 0, 4294967296)
buffer  d  int   64  init=zero  output
grid    1
block   32
args    a, b, d, FORM
*/
#include "../data/tensor/tensor.cu"
