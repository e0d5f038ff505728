// long_names.cu - kernel names longer than the 63 characters names of parameters and buffers
// may have: a 70-character kernel and a 200-character template instantiation; tests/test_ptxgen.c.

/*@warpscope
kernel  fused_rmsnorm_residual_add_bf16_vectorized_kernel_with_a_long_name_x70
param   N = 64
buffer  out  int  N  init=zero  output
grid    1
block   N
args    out
*/
__global__ void fused_rmsnorm_residual_add_bf16_vectorized_kernel_with_a_long_name_x70(int *out) { out[threadIdx.x] = 2 * threadIdx.x; }

/*@warpscope
kernel  flash_attention_forward_split_kv_causal_bf16_sm90_kernel<7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 5, 12, 19, 26, 33, 40, 47, 54, 61, 68, 75, 82, 89, 96, 3, 10, 17, 24, 31, 38, 45, 52, 5>
param   N = 32
buffer  out  int  N  init=zero  output
grid    1
block   N
args    out
*/
template <int... V>
__global__ void flash_attention_forward_split_kv_causal_bf16_sm90_kernel(int *out) { out[threadIdx.x] = (int)sizeof...(V) + threadIdx.x; }
