/* exec_tc.h - what the tensor-era executors share (exec_tc.c: dispatch, cp.async and its
 * groups, mbarrier; exec_matrix.c: ldmatrix, stmatrix, wmma.load/store; exec_mma.c: mma,
 * wmma.mma). Not a contract outside sim/.
 * Invariant: every event these instructions emit carries its ws_mem_kind, so no plain
 * counter ever counts a tensor-era instruction. */
#ifndef WS_EXEC_TC_H
#define WS_EXEC_TC_H

#include "fragments.h"
#include "interp_priv.h"

/* Faults naming the instruction and why the simulator cannot run it (ptx_tc.refuse). */
int sim_tc_refuse(sim_ctx *c, sim_warp *w, const sim_insn *in, const char *why);
/* Lane addresses of a decoded address operand for the lanes of m. */
void sim_tc_addr(const sim_warp *w, const sim_addr *a, uint32_t m, uint64_t *addr);
/* The first address operand (mem_*) as a sim_addr. */
sim_addr sim_tc_mem1(const sim_insn *in);
/* Generic addresses of the lanes of m that must all be shared: turned into offsets in the
 * block's shared window; a lane outside it faults. Addresses of an explicit .shared are kept. */
int sim_tc_shared_addr(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, uint64_t *addr);
/* File offset of element e of a register or {..} operand (a sink reads and writes scratch). */
uint32_t sim_tc_elem(const sim_ctx *c, const ptx_operand *o, int e);
/* One event of the lanes of m (width bytes each at addr[]) to the listener; counts seq. */
void sim_tc_emit(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, ws_mem_op op, ws_mem_kind kind,
                 uint32_t m, const uint64_t *addr, uint32_t width);
/* The same with the event's part (event.h: a copy's place, a wmma event's register). */
void sim_tc_emit_part(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, ws_mem_op op, ws_mem_kind kind,
                      uint32_t m, const uint64_t *addr, uint32_t width, uint32_t part);

/* A copy's events: n bytes from src (space ss) to dst (space ds), in events of up to 32 lanes of
 * 16 bytes; src_chunk / dst_chunk (NULL = contiguous from src / dst) give each 16-byte chunk's
 * address, SIM_TC_NO_CHUNK for one that is not accessed on that side. */
#define SIM_TC_NO_CHUNK UINT64_MAX
void sim_tc_emit_copy(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_mem_kind kind, ws_space ss,
                      const uint64_t *src_chunk, uint64_t src, ws_space ds, const uint64_t *dst_chunk, uint64_t dst,
                      uint64_t n);
/* The same, one side only: sides bit 0 the source's events, bit 1 the destination's (a
 * multicast copy reads once and writes each destination block); copies: the blocks a copy to
 * shared memory lands in, carried by its source events (event.h `copies`). */
void sim_tc_emit_copy_sides(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_mem_kind kind, ws_space ss,
                            const uint64_t *src_chunk, uint64_t src, ws_space ds, const uint64_t *dst_chunk, uint64_t dst,
                            uint64_t n, int sides, int copies);

/* Another block of the cluster as the one whose shared window and tensor-era state the
 * executors see (c->shared, c->tc, c->blk), for an operation on a .shared::cluster address:
 * tag is the address's (interp_priv.h: 1 + rank; 0 = the executing block, nothing changes).
 * Shared events emitted meanwhile carry dsmem = tag when the block is not the executing one.
 * A rank outside the cluster, or a block that has exited, faults naming it (-1). Every
 * sim_tc_enter that returned 0 is paired with a sim_tc_leave of the same view. */
typedef struct { uint8_t *shared; struct sim_tc *tc; sim_block *blk; uint8_t tag; } sim_tc_view;
int sim_tc_enter(sim_ctx *c, sim_warp *w, const sim_insn *in, int lane, uint32_t tag, sim_tc_view *save);
void sim_tc_leave(sim_ctx *c, const sim_tc_view *save);

/* Marks n shared bytes at dst as written by a bulk copy completing on the mbarrier at shared
 * offset mbar: in flight until a test/try_wait has seen that phase end (sim_tc_check_shared). */
int sim_tc_mark_bulk(sim_ctx *c, uint64_t dst, uint64_t n, uint64_t mbar, uint32_t pc);
/* complete_tx of bytes on the mbarrier at shared offset mbar (host pointer p); 0 or -1 (fault). */
int sim_tc_complete_tx(sim_ctx *c, sim_warp *w, const sim_insn *in, int lane, uint8_t *p, uint64_t mbar, int64_t bytes);

int sim_exec_bulk(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);    /* exec_bulk.c */
int sim_exec_matrix(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);  /* exec_matrix.c */
int sim_exec_mma(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);     /* exec_mma.c */

/* The shared address wgmma reads element (mn, k) of an operand of elem_bytes-byte elements at, through
 * the 64-bit matrix descriptor desc, K-major or MN-major (exec_wgmma.c's layouts and swizzle, the
 * base offset included). Example: 128B swizzle, start 0x400, base 0, K-major f16, element (1, 0) ->
 * 0x490 (row 1's chunk 0 XOR 1). */
uint64_t sim_wgmma_elem_addr(uint64_t desc, int mn, int k, int elem_bytes, bool mn_major);

#endif
