/* atomics.h - the contention model of atomics and reductions (docs/timing-model.md
 * "Contention"): how many operations each global address receives over the kernel (L2 applies
 * the operations on one address one after another), how many sector-ops and operand bytes
 * each L2 slice's address range receives (a slice's atomic unit applies one sector-op at a
 * time and takes its operands at a finite rate), and the wavefronts each shared atomic needs in its SM.
 * Invariant: it counts; it times nothing (sim/models/timing.c turns the maxima into terms). Every
 * atomic or reduction event is counted once, in ws_models_event; other events are ignored.
 *
 * Global: an instruction's lane-ops are its active lanes (one read-modify-write each); its
 * sector-ops are ws_coalesce_atom_sectors under the device's rule (PASS: per sector, its
 * most-hit word's lanes). Per address: the lane-ops it received, floating-point adds apart
 * (their rate differs); per slice range (dev->atom_slice_bytes of contiguous addresses): the
 * sector-ops and the operand bytes its lanes send (width per lane). Shared: a warp's
 * atomic costs its bank wavefronts, as a load (ws_banks: lanes on one word combine, so 32
 * lanes on one address are 1 wavefront, 32 words of one bank 32; measured on the H200). */
#ifndef WS_ATOMICS_H
#define WS_ATOMICS_H

#include <stdint.h>

#include "../../common/device.h"
#include "coalesce.h"
#include "../interp/event.h"

/* What the model says about one atomic event (a slot of ws_mem_verdict). */
typedef struct {
    int lane_ops;         /* active lanes: one read-modify-write each */
    int sector_ops;       /* global: sectors under the device's rule (= the L1TEX/L2 sectors counted) */
    int same_addr_max;    /* the most lanes of this instruction on one address */
    int shared_passes;    /* shared: wavefronts in the banks (1 = none serialised) */
} ws_atomic_result;

typedef struct {
    uint64_t global_inst, global_red_inst;  /* warp-level global atomics (with return) / reductions */
    uint64_t global_lane_ops, global_sector_ops;
    uint64_t addresses;                     /* distinct global addresses atomically updated */
    uint64_t addr_ops_max;                  /* lane-ops on the most updated address (no float adds) */
    uint64_t addr_max;                      /* the most updated address (simulated global space) */
    uint64_t addr_float_ops_max;            /* float-add lane-ops on the most float-added address */
    uint64_t slice_sector_ops_max;          /* sector-ops on the busiest slice range */
    uint64_t slice_operand_bytes_max;       /* operand bytes (lanes x width) sent to the busiest range */
    double window_unit_ops;                 /* sum over windows of warps in flight together (launch order,
                                               ws_atomics_set_window) of their sector-ops / the units their
                                               distinct slice ranges keep busy (0: profile without the law) */
    uint64_t shared_inst, shared_passes;    /* shared atomics/reductions and their wavefronts */
    uint64_t shared_serialised_inst;        /* of which with more than one pass */
    uint64_t shared_passes_sm_max;          /* passes on the busiest SM */
} ws_atomic_totals;

typedef struct ws_atomics ws_atomics;

/* Returns NULL on out-of-memory. */
ws_atomics *ws_atomics_new(const ws_device *dev);
void ws_atomics_free(ws_atomics *a);
/* One event of SM sm; co is its coalescing (global; NULL otherwise). Returns 1 and fills *r
 * for an atomic or reduction on global or shared memory, else 0 (nothing counted). -1 when
 * the address table cannot grow (out of memory: the counts so far stay). */
int ws_atomics_event(ws_atomics *a, int sm, const ws_mem_event *ev, const ws_coalesce_result *co,
                     ws_atomic_result *r);
/* ws_atomics_event in two halves, for threads (sim/split.c): the event's own result (a function of
 * ev and co alone: lane-ops, the most lanes on one address, shared passes, sector-ops), 1 where
 * ws_atomics_event would count the event, else 0 (*r zeroed); then the counting, in event order,
 * from that result (pre: ws_atomics_result's for the same ev and co). */
int ws_atomics_result(const ws_device *dev, const ws_mem_event *ev, const ws_coalesce_result *co, ws_atomic_result *r);
int ws_atomics_event_with(ws_atomics *a, int sm, const ws_mem_event *ev, const ws_coalesce_result *co,
                          const ws_atomic_result *pre, ws_atomic_result *r);
/* The warps in flight together across the GPU (resident blocks x warps per block x SMs): global
 * warps w and v share a window when w / warps = v / warps. Set before the first event (default 1). */
void ws_atomics_set_window(ws_atomics *a, uint64_t warps);
/* The shared rule alone (no state): the bank wavefronts of the access (ws_banks). */
int ws_atomics_shared_passes(const ws_mem_event *ev);
const ws_atomic_totals *ws_atomics_totals(const ws_atomics *a);

#endif
