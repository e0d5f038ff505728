/* test_demangle.c - C++ names for people (common/demangle.c): the C++ runtime's demangler
 * on names whose encoding is worked out here from the Itanium C++ ABI's mangling grammar,
 * the split of a kernel name into base, template arguments and parameters, and the
 * canonical spelling that makes a description's "const float*" equal the demangler's
 * "float const*". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../common/demangle.h"

static void test_the_runtime_demangles_kernel_names(void **state)
{
    (void)state;
    char out[256];
    /* _Z <length 1> k, then the parameter types: P K i = pointer to const int, P i, i */
    assert_string_equal(ws_demangle("_Z1kPKiPii", out, sizeof out), "k(int const*, int*, int)");
    /* a template function also encodes its return type: I Li4E E = <4>, v = void */
    assert_string_equal(ws_demangle("_Z5scaleILi4EEvPKfPfi", out, sizeof out), "void scale<4>(float const*, float*, int)");
    /* N 2ns 1k E = ns::k; I f Li8E E = <float, 8>; P T_ = pointer to the first template parameter */
    assert_string_equal(ws_demangle("_ZN2ns1kIfLi8EEEvPT_", out, sizeof out), "void ns::k<float, 8>(float*)");
    /* unsigned template argument: L j 4 E = 4u */
    assert_string_equal(ws_demangle("_Z3fooILj4EEvPf", out, sizeof out), "void foo<4u>(float*)");
    /* CUDA's half and bfloat16 are classes: <length>name */
    assert_string_equal(ws_demangle("_Z1hPK6__halfP13__nv_bfloat16i", out, sizeof out),
                        "h(__half const*, __nv_bfloat16*, int)");
    assert_true(ws_is_mangled("_Z1kPKiPii"));
}

static void test_names_that_are_not_mangled_come_back_unchanged(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(ws_demangle("transpose_naive", out, sizeof out), "transpose_naive"); /* extern "C" */
    assert_string_equal(ws_demangle("_Zjunk", out, sizeof out), "_Zjunk");                   /* not decodable */
    assert_string_equal(ws_demangle("i", out, sizeof out), "i");  /* a type code alone is no function name */
    assert_false(ws_is_mangled("transpose_naive"));
    assert_false(ws_is_mangled("_Zjunk"));
    assert_false(ws_is_mangled(NULL));
    /* a short destination is cut, never overrun */
    char tiny[6];
    assert_string_equal(ws_demangle("_Z1kPKiPii", tiny, sizeof tiny), "k(int");
}

static void test_a_kernel_name_splits_into_base_arguments_and_parameters(void **state)
{
    (void)state;
    ws_cxx_name n;
    assert_int_equal(ws_cxx_name_split("void scale<4>(float const*, float*, int)", &n), 0);
    assert_string_equal(n.base, "scale");   /* the return type is not part of the name */
    assert_true(n.has_targs);
    assert_string_equal(n.targs, "4");
    assert_true(n.has_params);
    assert_string_equal(n.params, "float const*, float*, int");

    assert_int_equal(ws_cxx_name_split("ns::k<float, 8>", &n), 0);
    assert_string_equal(n.base, "ns::k");
    assert_string_equal(n.targs, "float, 8");
    assert_false(n.has_params);

    assert_int_equal(ws_cxx_name_split("k(const int *, int*, int)", &n), 0);
    assert_string_equal(n.base, "k");
    assert_false(n.has_targs);
    assert_string_equal(n.params, "const int *, int*, int");

    /* nested brackets stay inside their group */
    assert_int_equal(ws_cxx_name_split("void f<Vec<int, 2>, 3>(Vec<int, 2>*)", &n), 0);
    assert_string_equal(n.base, "f");
    assert_string_equal(n.targs, "Vec<int, 2>, 3");
    assert_string_equal(n.params, "Vec<int, 2>*");

    assert_int_equal(ws_cxx_name_split("(anonymous namespace)::k(int*)", &n), 0);
    assert_string_equal(n.base, "(anonymous namespace)::k");

    assert_int_equal(ws_cxx_name_split("plain", &n), 0);
    assert_string_equal(n.base, "plain");
    assert_false(n.has_targs || n.has_params);

    /* brackets that do not balance */
    assert_int_equal(ws_cxx_name_split("k<2", &n), -1);
    assert_int_equal(ws_cxx_name_split("k(int", &n), -1);
    assert_int_equal(ws_cxx_name_split("k2>(int)", &n), -1);
}

/* canon(a) must equal canon(b): what a user writes against what the demangler prints */
static void same(const char *user, const char *demangled)
{
    char a[256], b[256];
    ws_cxx_list_canon(user, a, sizeof a);
    ws_cxx_list_canon(demangled, b, sizeof b);
    if (strcmp(a, b)) fail_msg("'%s' -> '%s' but '%s' -> '%s'", user, a, demangled, b);
}

static void differ(const char *x, const char *y)
{
    char a[256], b[256];
    ws_cxx_list_canon(x, a, sizeof a);
    ws_cxx_list_canon(y, b, sizeof b);
    if (!strcmp(a, b)) fail_msg("'%s' and '%s' both -> '%s'", x, y, a);
}

static void test_type_lists_compare_in_one_spelling(void **state)
{
    (void)state;
    char out[128];
    ws_cxx_list_canon("const float *, size_t", out, sizeof out);
    assert_string_equal(out, "float const*, unsigned long");
    same("const int *, int *, int", "int const*, int*, int");
    same("const unsigned *", "unsigned int const*");
    same("int * const, const int", "int*, int");                 /* a parameter's own const is not its type */
    same("float * __restrict__, const float * __restrict__", "float*, float const*");
    same("uint32_t, int64_t, uint8_t", "unsigned int, long, unsigned char");
    same("long int, short int, signed", "long, short, int");
    same("const half *, nv_bfloat16 *", "__half const*, __nv_bfloat16*");
    same("4u", "4");                                             /* template arguments: literal suffixes */
    same("float, 8", "float, 8");
    same("void", "");                                            /* f(void) is f() */
    same("const ns::Vec<int, 2> *", "ns::Vec<int, 2> const*");
    differ("int *", "float *");
    differ("const int *", "int *");                              /* pointee const is part of the type */
    differ("int, int", "int");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_runtime_demangles_kernel_names),
        cmocka_unit_test(test_names_that_are_not_mangled_come_back_unchanged),
        cmocka_unit_test(test_a_kernel_name_splits_into_base_arguments_and_parameters),
        cmocka_unit_test(test_type_lists_compare_in_one_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
