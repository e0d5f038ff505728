/* ldgsts_rule3.cu - cp.async (LDGSTS) patterns that separate the candidate rules for the H200's
 * LDGSTS shared-write wavefronts and re-requested global sectors of the .cg form (sim/models/banks.h
 * ws_banks_ldgsts, docs/sass.md "LDGSTS: shared wavefronts and global sectors"): a shared destination
 * 16 bytes off a 32-byte boundary (each global sector lands in two shared 32-byte blocks), a rotated
 * tile (mmaAsync*'s permutation), and a sector whose two lanes land 256 bytes apart, each as .cg and .ca.
 * One warp a block, W blocks, one cp.async each lane: lane l copies SIZE bytes from
 * in + block*4096 + (l / LPR) * GSTRIDE + (l % LPR) * SIZE to shared address
 *   MODE 0: DOFF + (l / LPR) * DROW + (l % LPR) * SIZE
 *   MODE 1: DOFF + (l / LPR) * DROW + ((l % LPR + l / LPR) % LPR) * SIZE   (rotated by row)
 *   MODE 2: DOFF + (l % 2) * DROW + (l / 2) * SIZE                         (a sector's lanes split)
 * then copies them out (the output check). scripts/gpu-ldgsts3.sh runs `check` on every kernel here. */

template <int CA>
__device__ __forceinline__ void cp_async16(unsigned s, const void *g)
{
    if (CA)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(g) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(g) : "memory");
}
/*@warpscope
kernel  ld3_cg16_off16
entry   ldgsts_map<0>
note    16 B .cg, 512 contiguous bytes both sides, shared start 16 B into a 32-B block.
param   MODE = 0
param   LPR = 32
param   GSTRIDE = 512
param   DROW = 512
param   DOFF = 16
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, MODE, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ld3_ca16_off16
entry   ldgsts_map<1>
note    the same as .ca.
param   MODE = 0
param   LPR = 32
param   GSTRIDE = 512
param   DROW = 512
param   DOFF = 16
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, MODE, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ld3_cg16_rot8
entry   ldgsts_map<0>
note    16 B .cg, four 128-B global lines, each to a 128-B shared row rotated by its row number.
param   MODE = 1
param   LPR = 8
param   GSTRIDE = 128
param   DROW = 128
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, MODE, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ld3_ca16_rot8
entry   ldgsts_map<1>
note    the same as .ca.
param   MODE = 1
param   LPR = 8
param   GSTRIDE = 128
param   DROW = 128
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, MODE, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ld3_cg16_pairs
entry   ldgsts_map<0>
note    16 B .cg, 512 contiguous global bytes; even lanes to shared [0,256), odd lanes to [256,512).
param   MODE = 2
param   LPR = 32
param   GSTRIDE = 512
param   DROW = 256
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, MODE, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ld3_ca16_pairs
entry   ldgsts_map<1>
note    the same as .ca.
param   MODE = 2
param   LPR = 32
param   GSTRIDE = 512
param   DROW = 256
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, MODE, LPR, GSTRIDE, DROW, DOFF
*/
template <int CA>
__global__ void ldgsts_map(const unsigned char *in, unsigned char *out, int mode, int lpr, int gstride, int drow, int doff)
{
    __shared__ __align__(128) unsigned char s[8192];
    int l = threadIdx.x;
    const unsigned char *src = in + (size_t)blockIdx.x * 4096 + (l / lpr) * gstride + (l % lpr) * 16;
    int d = mode == 0 ? doff + (l / lpr) * drow + (l % lpr) * 16
          : mode == 1 ? doff + (l / lpr) * drow + ((l % lpr + l / lpr) % lpr) * 16
                      : doff + (l % 2) * drow + (l / 2) * 16;
    cp_async16<CA>((unsigned)__cvta_generic_to_shared(s + d), src);
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    for (int b = 0; b < 16; b++)
        out[((size_t)blockIdx.x * 32 + l) * 16 + b] = s[d + b];
}

/* the forms above, instantiated for the PTX (the descriptions name them) */
template __global__ void ldgsts_map<0>(const unsigned char *, unsigned char *, int, int, int, int, int);
template __global__ void ldgsts_map<1>(const unsigned char *, unsigned char *, int, int, int, int, int);
