// expect: 3:5: unterminated warpscope block

    /*@warpscope
kernel copy
grid 1
block 32

__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
