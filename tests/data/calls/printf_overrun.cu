// printf_overrun.cu - a printf %s argument with no NUL before its buffer ends (8 bytes of 'A',
// init=const(65)): the simulator stops at the byte past the end and names the buffer, where a
// GPU would print whatever lies beyond (tests/test_exec_call.c).

/*@warpscope
kernel  printf_overrun
buffer  text  char  8  init=const(65)
grid    1
block   1
args    text
*/
__global__ void printf_overrun(const char *text)
{
    printf("[%s]\n", text);
}
