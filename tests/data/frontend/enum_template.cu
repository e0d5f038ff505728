// enum_template.cu - a kernel templated on an enum, named by the enumerator: sim, check
// and ptx must all find bitonic_step<ASCENDING>, which the PTX names <(sort_order)0>, by the compiler's
// lowered name (issue 26: ptx could not).

enum sort_order { ASCENDING, DESCENDING };

/*@warpscope
kernel  sort_up
entry   bitonic_step<ASCENDING>
param   N = 64
buffer  a  int  N  init=index  output
grid    1
block   N
args    a
*/
template <sort_order O>
__global__ void bitonic_step(int *a)
{
    int i = threadIdx.x, j = i ^ 1;
    int x = a[i], y = a[j];
    bool keep = (O == ASCENDING) == (i < j) ? x <= y : x >= y;
    __syncthreads();
    a[i] = keep ? x : y;
}
