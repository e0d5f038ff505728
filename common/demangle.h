/* demangle.h - C++ names as a person reads them: the Itanium-ABI demangler of the C++
 * runtime (abi::__cxa_demangle in libstdc++), called from C; and the parts of a
 * demangled kernel name that descriptions match against (base, template arguments,
 * parameter list). Invariant: never hand-decodes a mangled name; an unmangled or
 * undecodable name comes back unchanged. */
#ifndef WS_DEMANGLE_H
#define WS_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes the demangled form of name into out (cap bytes, always NUL-terminated) and
 * returns out: "_Z5scaleILi4EEvPfPKfi" -> "void scale<4>(float*, float const*, int)",
 * "_Z1kPKiPii" -> "k(int const*, int*, int)". A name that is not mangled ("transpose",
 * an extern "C" kernel) or that the runtime cannot decode is copied as it is. */
char *ws_demangle(const char *name, char *out, size_t cap);

/* True when name is an Itanium-mangled function name the runtime decodes. */
bool ws_is_mangled(const char *name);

/* A kernel name split the way descriptions write it: "ns::scale<4, float>(float*, int)"
 * -> base "ns::scale", targs "4, float" (has_targs), params "float*, int" (has_params).
 * Works on demangled text (a leading return type such as "void " is dropped) and on what a
 * user writes in a description. Returns 0, or -1 when the brackets do not balance. */
typedef struct {
    char base[256];
    char targs[512];
    char params[1024];
    bool has_targs, has_params;
} ws_cxx_name;
int ws_cxx_name_split(const char *text, ws_cxx_name *out);

/* Canonical spelling of a template-argument or parameter list, so that what a user writes
 * compares equal to what the demangler prints: blanks only between words, "const T" ->
 * "T const", top-level const and __restrict__ dropped from each parameter, "unsigned" ->
 * "unsigned int", the <stdint.h> and size_t names -> their LP64 builtin types, integer
 * literal suffixes (4u, 8l) dropped. Example: "const float * __restrict__ p, size_t n" is
 * not a type list (names are not removed), but "const float *, size_t" -> "float const*,
 * unsigned long". */
void ws_cxx_list_canon(const char *list, char *out, size_t cap);

/* Parameter i (0-based) of a mangled function's demangled signature, in canonical spelling
 * ("__half", "float const*"); false when name is not mangled or has fewer parameters. Tells a
 * by-value __half from a 2-byte struct, which PTX declares alike (.param .align 2 .b8 p[2]). */
bool ws_demangled_param(const char *mangled, int i, char *out, size_t cap);

#endif
