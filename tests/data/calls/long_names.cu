// long_names.cu - identifiers far longer than 128 characters, as template-heavy
// headers (cooperative groups, CUB) emit them, for tests/test_exec_call.c: a module
// variable, a device function and a kernel.

__device__ int a_module_variable_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier_for_names[32];

__device__ __noinline__ int a_device_function_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier(int x)
{
    return a_module_variable_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier_for_names[x % 32] + x;
}

/*@warpscope
kernel  long_names
buffer  out  int  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void long_names(int *out)
{
    int t = threadIdx.x;
    a_module_variable_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier_for_names[t] = 3 * t;
    out[t] = a_device_function_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier(t);
}

/* A kernel name past 128 characters too (a description names at most 63: the test
 * launches this one through the interpreter directly). */
__global__ void a_kernel_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier_of_the_ptx_parser_x(int *out)
{
    out[threadIdx.x] = a_device_function_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_for_every_identifier((int)threadIdx.x * 5);
}
