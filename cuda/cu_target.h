/* cu_target.h - one kernel made ready for both backends: its description
 * resolved with the -D overrides, its PTX text (the same text for the JIT and
 * the simulator) parsed, its entry function found.
 * Invariant: an open target's fn belongs to its module and matches desc->entry. */
#ifndef CU_TARGET_H
#define CU_TARGET_H

#include "../common/catalog.h"
#include "../common/desc.h"
#include "../sim/frontend/ptx.h"

typedef struct {
    const ws_desc_file *file;
    const ws_kernel_desc *desc;
    ws_desc_file *owned;       /* a file outside the catalog, freed on close */
    ws_launch launch;
    char *ptx;                 /* PTX text */
    char ptx_how[700];         /* where it came from */
    ptx_module *module;
    const ptx_function *fn;
} cu_target;

/* Resolves kernel argument `arg` in catalog c for a device of compute
 * capability cc (0.0 = sm_90); the PTX is ws_catalog_ptx_text(WS_PTX_LOADABLE):
 * the checked-in text unless its .target is newer than the device. The arguments
 * are checked against the entry's parameters (sim/frontend/params.h, the simulator's rule and
 * message). Returns 0, WS_EXIT_USAGE for a bad kernel name, description, PTX or
 * argument, or WS_EXIT_INTERNAL, with err set. */
int cu_target_open(ws_catalog *c, const char *arg, const ws_overrides *ov, int cc_major, int cc_minor,
                   cu_target *t, ws_error *err);
void cu_target_close(cu_target *t);

/* Resolves each of the n kernel arguments against the catalog (no device needed), so
 * gpu and check can refuse a misspelt name (WS_EXIT_USAGE, err set) before they open
 * the driver: a typo is an input error on every machine, not "no GPU". Returns 0 or
 * WS_EXIT_USAGE. */
int cu_target_names_exist(const char *const *args, int n, ws_error *err);

#endif
