/* catalog_ptx.h - a catalog file's PTX, parsed: common/catalog.h picks the text (checked
 * in when fresh, else compiled now), sim/frontend/ptx_parse.c turns it into the module the
 * simulator runs. Lives in sim/ so that common/ never depends on the PTX parser. */
#ifndef WS_CATALOG_PTX_H
#define WS_CATALOG_PTX_H

#include "../../common/catalog.h"
#include "ptx.h"

/* The parsed PTX of a description file, by ws_catalog_ptx_text's rule for the simulator
 * (WS_PTX_SAME_TARGET); NULL with err set when no text is found or it does not parse.
 * Example: ptx_module *m = ws_catalog_ptx(file, "sm_90", &err); ... ptx_free(m); */
ptx_module *ws_catalog_ptx(const ws_desc_file *f, const char *arch, ws_error *err);
/* Same, and writes into how (may be NULL) where the PTX came from, e.g.
 * "demos/transpose.ptx (checked in, fresh)" or "compiled now with nvrtc for sm_90". */
ptx_module *ws_catalog_ptx_ex(const ws_desc_file *f, const char *arch, char *how, size_t how_cap, ws_error *err);

/* The kernel (.entry) of m that d launches: the compiler's lowered name for d->entry when
 * ptx_text (may be NULL) records one; else the .entry whose demangled name matches d->entry
 * - its base name, and its template arguments and parameter types where d->entry gives them
 * (compared in canonical spelling: "const float*" is "float const*"). No match, or more than
 * one, is an error at d's entry line naming the kernels there are, demangled. Example:
 *   fn = ws_catalog_entry(mod, ptx, d, &err);   // d->entry "scale<4>" -> _Z5scaleILi4EEvPKfPfi */
const ptx_function *ws_catalog_entry(const ptx_module *m, const char *ptx_text, const ws_kernel_desc *d, ws_error *err);

#endif
