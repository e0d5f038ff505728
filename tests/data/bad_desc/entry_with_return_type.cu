// expect: 4:7: entry 'void scale<4>': expected a function name, NAME<template args> or NAME(parameter types)
/*@warpscope
kernel s4
entry void scale<4>
grid 1
block 32
*/
template <int N> __global__ void scale(float *a) { a[0] = N; }
