/* cmd_ptx.c - `warpscope ptx <kernel> [-D N=V]... [--arch sm_90] [--sass]`: the kernel's
 * parsed PTX grouped under the source lines it came from, memory instructions
 * marked with their state space and bytes per thread.
 * Invariant: it shows what the simulator will execute (the parsed module, read
 * back through ptx_format_insn), never the raw PTX text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/catalog.h"
#include "../../common/cli.h"
#include "../../common/commands.h"
#include "../../common/demangle.h"
#include "../../common/desc.h"
#include "../../common/desc_text.h"
#include "../../common/text.h"
#include "../frontend/catalog_ptx.h"
#include "../interp/interp.h"
#include "../frontend/ptx.h"
#include "../sass/sass_events.h"

typedef struct {
    ws_cli_common c; /* -D, --arch */
    bool sass;
} ptx_opts;

static const ws_opt ptx_options[] = {
    WS_CLI_OPT_DEFINE,
    WS_CLI_OPT_REALISTIC,
    WS_CLI_OPT_ARCH,
    {.name = "sass", .kind = WS_OPT_FLAG, .at = offsetof(ptx_opts, sass),
     .help = "the PTX memory instructions beside the SASS ones ptxas made of them,\n"
             "per source line: merges, removals, predication, spills, unrolled copies\n"
             "(needs ptxas and nvdisasm; docs/sass.md)"},
};

static const ws_cli_spec ptx_spec = {
    .command = "ptx",
    .usage = "usage: warpscope ptx <kernel> [-D NAME=VALUE]... [--arch sm_XX] [--sass]\n",
    .about = "Shows a kernel's PTX as warpscope parsed it: each source line of the .cu, then the\n"
             "instructions compiled from it (index, PTX line, memory mark, instruction).\n"
             "Memory instructions are marked 'M <space> <bytes per thread>', e.g. 'M global 16B'.\n"
             "-D is checked against the description; the PTX does not depend on it. The checked-in\n"
             "PTX is used when it is fresh and for the --arch target, otherwise NVRTC or nvcc compiles it.\n"
             "\n"
             "  <kernel>            a catalog name (transpose_naive), a file (k.cu) or file:name (k.cu:scale)\n",
    .opts = ptx_options,
    .nopts = WS_CLI_COUNT(ptx_options),
};

static const char *space_short(ptx_space s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: return "shared";
    case PTX_SPACE_SHARED_CLUSTER: return "dshared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_PARAM: return "param";
    default: return "generic";
    }
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Source text of (file index, line): the description's own .cu when the PTX's
 * .file names it (by base name), else nothing. */
static void source_text(const ptx_module *m, const ws_desc_file *f, int file, int line, char *out, size_t cap)
{
    out[0] = 0;
    for (int i = 0; i < m->nfiles; i++) {
        if (m->files[i].index != file) continue;
        if (!strcmp(base_name(m->files[i].path), base_name(f->path)))
            ws_source_line(f->source, f->source_len, line, out, cap);
        return;
    }
}

static const char *file_name(const ptx_module *m, const ws_desc_file *f, int file)
{
    for (int i = 0; i < m->nfiles; i++)
        if (m->files[i].index == file)
            return strcmp(base_name(m->files[i].path), base_name(f->path)) ? m->files[i].path : f->path;
    return "?";
}

static void show(const ptx_module *m, const ptx_function *fn, const ws_desc_file *f, const ws_kernel_desc *d,
                 const char *how)
{
    int nmem = 0;
    for (int i = 0; i < fn->ninsns; i++) nmem += ptx_insn_is_memory(&fn->insns[i]);
    char shown[3 * WS_PATH_MAX], how_shown[3 * WS_PATH_MAX + 300]; /* file names may hold terminal controls */
    printf("kernel  %s  (%s:%d)  entry %s\n", d->name, ws_text_visible(f->path, shown, sizeof shown), d->line, fn->name);
    printf("ptx     %s; target %s, PTX ISA %d.%d\n", ws_text_visible(how, how_shown, sizeof how_shown), m->target,
           m->version_major, m->version_minor);
    printf("params ");
    for (int i = 0; i < fn->nparams; i++) {
        const ptx_symbol *s = &fn->syms[fn->param_syms[i]];
        char label[WS_NAME_MAX + 8];
        if (i < d->nargs && d->args[i].kind == WS_ARG_BUFFER) snprintf(label, sizeof label, "%s", d->buffers[d->args[i].buffer].name);
        else snprintf(label, sizeof label, "arg%d", i);
        printf("%s %s@%llu:%lluB", i ? "," : "", label, (unsigned long long)s->offset, (unsigned long long)s->size);
    }
    printf("%s (%llu bytes)\n", fn->nparams ? "" : " none", (unsigned long long)fn->param_bytes);
    printf("memory  shared %llu B static, dynamic from %llu; local %llu B per thread\n",
           (unsigned long long)fn->static_shared_bytes, (unsigned long long)fn->dyn_shared_offset,
           (unsigned long long)fn->local_bytes);
    printf("        %d instructions, %d reach memory (M = memory: state space, bytes per thread;\n"
           "        a branch to Ln goes to instruction #n)\n", fn->ninsns, nmem);

    int cur_file = -1, cur_line = -1;
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *in = &fn->insns[i];
        if (in->src_file != cur_file || in->src_line != cur_line) {
            cur_file = in->src_file;
            cur_line = in->src_line;
            if (in->src_line <= 0) {
                printf("\n(no source line: code the compiler added)\n");
            } else {
                char text[512];
                source_text(m, f, in->src_file, in->src_line, text, sizeof text);
                const char *t = text + strspn(text, " \t");
                char shown[3 * sizeof text];     /* a .cu line may hold terminal controls */
                printf("\n%s:%d  %s\n", file_name(m, f, in->src_file), in->src_line,
                       ws_text_visible(t, shown, sizeof shown));
            }
        }
        char mark[32] = "";
        if (ptx_insn_is_memory(in))
            snprintf(mark, sizeof mark, "M %s %dB", space_short(in->space),
                     ptx_tc_op(in->op) ? ptx_tc_width(in) : in->vec * ptx_type_size(in->type));
        char buf[256];
        ptx_format_insn(fn, in, buf, sizeof buf);
        printf("  #%-4d ptx:%-5d %-14s %s\n", i, in->ptx_line, mark, buf);
    }
}

/* ptx --sass: the text the simulator runs for this launch (its compile line), the kernel
 * found in it as sim finds it, and ptxas + nvdisasm's machine code beside it. */
static int sass_side_by_side(const ws_desc_file *f, const ws_kernel_desc *d, const ws_launch *L, const char *arch)
{
    ws_error err;
    ws_ptx_origin origin;
    char *text = ws_catalog_ptx_text_for(f, L, arch, WS_PTX_SAME_TARGET, &origin, &err);
    ptx_module *m = text ? ptx_parse(origin.path, text, &err) : NULL;
    const ptx_function *fn = m ? ws_catalog_entry(m, text, d, &err) : NULL;
    if (!fn) {
        ws_error_print(&err);
        ptx_free(m);
        free(text);
        return WS_EXIT_USAGE;
    }
    int rc;
    ws_sass_session *ss = ws_sass_session_open(text, fn, arch, NULL);
    if (!ss || !ss->active) {
        fprintf(stderr, "warpscope: ptx --sass: %s\n", ss ? ss->level : "out of memory");
        rc = ss ? WS_EXIT_USAGE : WS_EXIT_INTERNAL;
    } else {
        char entry[1024], shown[3 * WS_PATH_MAX];
        printf("kernel  %s  (%s:%d)  entry %s\n", d->name, ws_text_visible(f->path, shown, sizeof shown), d->line,
               ws_demangle(fn->name, entry, sizeof entry));
        ws_sass_print(stdout, ss->plan, f->source, f->source_len);
        rc = WS_EXIT_OK;
    }
    ws_sass_session_free(ss);
    ptx_free(m);
    free(text);
    return rc;
}

int ws_cmd_ptx(int argc, char **argv)
{
    ptx_opts o = {.c.arch = NULL};
    int nargs;
    int rc = ws_cli_parse(&ptx_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN)
        return rc;
    if (nargs > 1) {
        fprintf(stderr, "warpscope: ptx: one kernel at a time ('%s' and '%s')\n", argv[1], argv[2]);
        return WS_EXIT_USAGE;
    }
    if (nargs == 0) {
        ws_cli_help(&ptx_spec, stderr);
        return WS_EXIT_USAGE;
    }
    const char *kernel = argv[1], *arch = o.c.arch;
    ws_error err;
    ws_catalog *cat = NULL;
    ws_error cerr;
    /* a .cu argument works without a catalog; a bare name needs one */
    if (ws_catalog_load(NULL, &cat, &cerr) && !strstr(kernel, ".cu")) {
        ws_error_print(&cerr);
        return WS_EXIT_USAGE;
    }
    const ws_desc_file *f;
    const ws_kernel_desc *d;
    ws_desc_file *owned = NULL;
    rc = WS_EXIT_USAGE;
    ptx_module *m = NULL;
    char *text = NULL;
    if (ws_catalog_resolve(cat, kernel, &f, &d, &owned, &err)) {
        ws_error_print(&err);
        goto done;
    }
    ws_launch L;
    if (ws_desc_resolve(d, &o.c.ov, &L, &err)) {
        ws_error_print(&err);
        goto done;
    }
    /* the text sim runs for this launch (its compile line and -D), kept for the lookup: the
       compiler's lowered names in it find what no demangled match can (an enum template
       argument, <(sort_order)0>), as sim and check find it */
    ws_ptx_origin origin;
    text = ws_catalog_ptx_text_for(f, &L, arch, WS_PTX_SAME_TARGET, &origin, &err);
    m = text ? ptx_parse(origin.path, text, &err) : NULL;
    if (!m) {
        ws_error_print(&err);
        goto done;
    }
    const char *how = origin.how;
    const ptx_function *fn = ws_catalog_entry(m, text, d, &err);
    if (!fn) {
        ws_error_print(&err);
        goto done;
    }
    if (!o.sass) {
        show(m, fn, f, d, how);
        ws_error why;                         /* what parsed is listed; the refusal is an error */
        rc = ws_sim_check_runnable(m, fn, f->path, d->name, &why) ? WS_EXIT_USAGE : WS_EXIT_OK;
        if (rc) ws_error_print(&why);
        goto done;
    }
    rc = sass_side_by_side(f, d, &L, arch);
done:
    ptx_free(m);
    free(text);
    ws_desc_free(owned);
    ws_catalog_free(cat);
    return rc;
}
