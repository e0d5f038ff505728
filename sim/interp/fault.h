/* fault.h - a fault of a simulated kernel as a record: what kind, which checker reports it,
 * where (block, warp, lane, instruction, .cu and PTX line) and what went wrong. The
 * interpreter fills it where the fault happens; every consumer (the error line, memcheck's
 * summary, the JSON findings) reads its fields, and the one sentence is worded from it by
 * ws_fault_error, never parsed back.
 * Invariant: kind says everything a consumer decides on (refusal or fault, memcheck kind,
 * tool); msg is only ever printed. */
#ifndef WS_FAULT_H
#define WS_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/ws_error.h"

/* Kinds of memory error, for the memcheck summary (sim/interp/memcheck.h). */
typedef enum {
    WS_MEMERR_GLOBAL,      /* global access outside every buffer */
    WS_MEMERR_SHARED,      /* outside the block's shared window */
    WS_MEMERR_LOCAL,       /* outside the thread's local frame */
    WS_MEMERR_CONST,       /* outside the module's constant bank */
    WS_MEMERR_PARAM,       /* outside the parameter buffer */
    WS_MEMERR_MISALIGNED,  /* address not a multiple of the access size */
    WS_MEMERR_UNINIT,      /* read of global bytes never written, in a buffer declared init=none */
    WS_MEMERR_KINDS
} ws_memerr_kind;

typedef enum {
    WS_FAULT_NONE,         /* no fault: a cleared record */
    WS_FAULT_MEMORY,       /* an access outside memory, misaligned or of unwritten bytes: mem says which */
    WS_FAULT_SYNC,         /* barrier or warp-collective misuse that compute-sanitizer's synccheck reports */
    WS_FAULT_KERNEL,       /* any other misbehaviour: trap, failed assert, deadlock, the budget, a limit */
    WS_FAULT_UNSUPPORTED   /* an instruction the simulator does not run: a refusal of the input (exit 1) */
} ws_fault_kind;

/* The compute-sanitizer tool that would report the fault; SIMULATOR where none would. */
typedef enum { WS_TOOL_SIMULATOR, WS_TOOL_MEMCHECK, WS_TOOL_INITCHECK, WS_TOOL_SYNCCHECK } ws_fault_tool;

#define WS_FAULT_NAME_MAX 520   /* sim_ctx.kname: WS_KERNEL_NAME_MAX and a "<...>" suffix */

typedef struct {
    ws_fault_kind kind;
    ws_memerr_kind mem;            /* kind == WS_FAULT_MEMORY: its memcheck kind */
    ws_fault_tool tool;            /* ws_fault_tool_of(kind, mem) */
    uint32_t block[3];             /* blockIdx */
    int warp;                      /* warp of the block; -1 = the block's, no one warp's */
    int lane;                      /* -1 = the whole warp */
    int pc;                        /* instruction index in the function the warp ran; -1 = none */
    int src_line;                  /* .cu line of that instruction; 0 = unknown */
    int ptx_line;                  /* its PTX line; 0 = no instruction */
    int call_line;                 /* in a called function: the .cu line of the kernel's call, else 0 */
    char file[WS_PATH_MAX];        /* the file src_line is in (the PTX's when src_line is 0) */
    char kernel[WS_FAULT_NAME_MAX];/* the kernel's name as the description gives it */
    char func[WS_FAULT_NAME_MAX];  /* the called function the warp was in (demangled); "" = the kernel */
    char msg[WS_MSG_MAX];          /* what went wrong, one line, without the where */
} ws_fault;

ws_fault_tool ws_fault_tool_of(ws_fault_kind kind, ws_memerr_kind mem);
const char *ws_fault_tool_name(ws_fault_tool t);   /* "memcheck", ... "simulator" */

/* The line a fault names: src_line, else ptx_line (in file), 0 when neither. */
int ws_fault_line(const ws_fault *f);

/* The error of a fault: file, ws_fault_line and the message "<kernel>: block (x,y,z)
 * [warp W] [lane L] [in f (called at line N)]: <msg>", e.g.
 * "transpose_naive: block (3,0,0) warp 1 lane 7: global load of 4 bytes at 0x100004000 is 16
 * bytes past the end of buffer 'in' (4096 bytes)". */
void ws_fault_error(const ws_fault *f, ws_error *e);

/* ws_error_format of ws_fault_error: "k.cu:14: error: transpose_naive: block (3,0,0) ...". */
void ws_fault_format(const ws_fault *f, char *buf, size_t cap);

#endif
