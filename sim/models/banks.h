/* banks.h - shared-memory bank model (32 banks x 4 bytes), exact for sm_90:
 * wavefronts of one warp-level shared access (../shared/reference/gpu-memory-rules.md §3.2).
 * Invariant: wavefronts = sum over lane groups of max over banks of the number of
 * distinct 4-byte words the group needs from that bank; identical words merge.
 *
 * Groups: width <= 4 B: the whole warp. 8 B: the whole warp in pair mode, else the
 * two half-warps. 16 B: the two half-warps in pair mode, else the four quarter-warps.
 * Pair mode: for every active lane n, lane n^1 is inactive or has the same address;
 * or, the same with n^2. Sub-word accesses are word-granular.
 * Atomics and reductions on shared memory are costed with the same bank rule (an
 * assumption: the hardware's ATOMS path is not measured in the reference).
 *
 * Counts returned beside wavefronts:
 *   ideal    = max(1, ceil(distinct words * 4 / 128)) when any lane is active: the
 *              wavefronts the data volume needs, whatever the grouping;
 *   excess   = wavefronts - ideal: bank conflicts as a person means them;
 *   ncu_conflicts = wavefronts - groups with an active lane: what Nsight Compute's
 *              l1tex__data_bank_conflicts_pipe_lsu_mem_shared_* counts (rule 4). The two
 *              differ for 64/128-bit accesses: a float4 broadcast is 2 wavefronts,
 *              0 ncu conflicts, 1 excess. */
#ifndef WS_BANKS_H
#define WS_BANKS_H

#include <stdint.h>

#include "../interp/event.h"

#define WS_BANKS 32

typedef struct {
    int wavefronts;
    int ideal;
    int excess;            /* wavefronts - ideal (>= 0) */
    int ncu_conflicts;     /* wavefronts - active groups */
    int degree;            /* largest number of distinct words one bank serves in one group (n-way) */
    int ngroups;           /* 1, 2 or 4 */
    int active_groups;
    int pair_mode;         /* 1 when 64/128-bit pairing applied */
    int distinct_words;    /* over the whole warp */
    uint32_t conflict_banks;      /* bit b: bank b served > 1 distinct word in some group */
    uint8_t group_words[4][WS_BANKS]; /* distinct words bank b serves in group g (its wavefronts
                                         there; > 1 is a conflict); 0 for groups past ngroups */
    int sectors_rerequested;      /* LDGSTS .cg shared write only (ws_banks_ldgsts): global sectors its
                                     source reads again, beyond one request per sector; else 0 */
    int ld_sectors_extra;         /* the same for ncu's l1tex__t_sectors_..._global_op_ld; else 0 */
    int8_t lane_bank[32];         /* bank of the lane's first word; -1 inactive */
    int8_t lane_group[32];        /* group index; -1 inactive */
    int8_t lane_wavefront[32];    /* 0-based wavefront (over the instruction) in which the
                                     lane's last word is served; -1 inactive */
} ws_bank_result;

/* Computes the wavefronts of one shared-memory event (addr = byte offset in the
 * block's shared window). Returns 0; -1 (r zeroed, lanes -1) for a non-shared
 * event or a width outside 1..16.
 * Example: float stride-2 load -> r.wavefronts == 2, r.ncu_conflicts == 1. */
int ws_banks(const ws_mem_event *ev, ws_bank_result *r);

/* The ldmatrix / stmatrix rule (LDSM, STSM events: width 16, lane i gives one 16-byte row):
 * one phase per 8x8 matrix, lanes 8p..8p+7 supplying the rows of phase p, and each phase costs
 * the most distinct words one bank serves among its 8 rows; rows in distinct 16-byte bank
 * groups (address / 16 % 8 all different, for aligned rows) make it 1 wavefront, so an .x4
 * costs 4 when conflict-free. ngroups = 4 phases; ideal and ncu_conflicts as above (an
 * ncu_conflict is a wavefront beyond one per phase). Returns 0, or -1 (r reset) for an
 * event that is not a 16-byte shared access.
 * Example: rows 64 bytes apart (a 32-half unpadded tile) -> 2 rows per bank group, 2
 * wavefronts per phase; 80 bytes apart (padded by 8 halves) -> 1. */
int ws_banks_ldsm(const ws_mem_event *ev, ws_bank_result *r);

/* The cp.async (LDGSTS) shared-write rule, measured on the H200 (docs/memory-models.md "LDGSTS"):
 * the STS rule of ws_banks for every copying lane, plus, for a 16-byte copy of the zero-filling
 * form (ev->zfill_copy_mask != 0: a src-size or ignore-src operand, SASS LDGSTS...ZFILL), the
 * STS rule again for the lanes that copy a source byte: such a lane costs twice the store
 * rule, a lane that only zero-fills once; ideal adds the second pass's ideal, excess follows.
 * ncu_conflicts depend on the global lines the lanes read (ev->gline) and the cache form, per
 * phase of the store rule (128 bytes of lanes): .ca (cache_access) adds to the store rule's one
 * per global line beyond the first in a phase; .cg (cache_bypass) counts the store rule's
 * first-pass wavefronts beyond one per (phase, line) pair, at least 0 (results/h200-ldgsts-rule:
 * 16 B .ca, rows of 64 B two lines a quarter-warp, 80 B apart in shared: 4 + 4 = 8 an instruction;
 * the same .cg: 8 - 8 = 0; 32 lanes on one bank group, one line a quarter: 32 - 4 = 28).
 * Wavefronts stay the store rule's (not yet recorded for these patterns).
 * The lane fields describe the store rule. Returns as ws_banks.
 * Example: 32 lanes x 16 B contiguous, ZFILL form, all copying -> 8 wavefronts, 0 conflicts;
 * without the src-size operand -> 4 (4-byte lanes, either form: 1). */
int ws_banks_ldgsts(const ws_mem_event *ev, ws_bank_result *r);

#endif
