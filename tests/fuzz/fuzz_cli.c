/* fuzz_cli.c - libFuzzer target over what a user hands warpscope: a description file, a
 * command line and a results JSON (issue 21). Each input runs one command in-process
 * (ws_cmd_sim, ws_cmd_ptx, ws_cmd_list or ws_cmd_check) in an empty folder of its own holding
 * only those files, with stand-ins for every external tool: nvcc pastes its arguments into
 * `sh -c` in double quotes as the real one does (tests/test_injection.c), so text that reached
 * it could run a command; the others only log and fail.
 * Oracle (abort = a finding): after the command, the folder holds nothing but the inputs and
 * the output paths the command line named (--record F), its TMPDIR is empty (no temporary
 * left), nothing new is beside the folder, and the stand-in log names only the known tools.
 *
 * Input: sections split by a line "----": the .cu text; the command line (words split on
 * blanks, the first picks the command); the results JSON (r.json); optionally a PTX body,
 * written as k.ptx headed by the .cu's source hash so the simulator uses it without a
 * compiler. Words "K", "K:name" and "R" stand for k.cu, k.cu:name and r.json. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/commands.h"
#include "../../common/ptxgen.h"

#define MAX_WORDS 14

static char g_root[64];          /* /tmp/ws-fuzz-cli-XXXXXX: tools/, run/ */
static char g_run[96], g_tmp[112], g_log[96];

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_cli: %s: %s\n", what, detail);
    abort();
}

static void write_file(const char *path, const char *text, size_t n, int mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode ? mode : 0644);
    if (fd < 0 || (n && write(fd, text, n) != (ssize_t)n) || close(fd)) die("cannot write", path);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(p);
}

static void stand_in(const char *name, const char *body)
{
    char path[160], text[600];
    snprintf(path, sizeof path, "%s/tools/%s", g_root, name);
    snprintf(text, sizeof text, "#!/bin/sh\necho \"%s\" >> \"%s\"\n%s", name, g_log, body);
    write_file(path, text, strlen(text), 0755);
    char var[64];
    snprintf(var, sizeof var, "WARPSCOPE_%s", name);
    for (char *c = var; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    setenv(var, path, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(g_root, sizeof g_root, "/tmp/ws-fuzz-cli-XXXXXX");
    if (!mkdtemp(g_root)) die("mkdtemp", strerror(errno));
    char tools[96];
    snprintf(tools, sizeof tools, "%s/tools", g_root);
    mkdir(tools, 0755);
    snprintf(g_run, sizeof g_run, "%s/run", g_root);
    snprintf(g_tmp, sizeof g_tmp, "%s/tmp", g_run);
    snprintf(g_log, sizeof g_log, "%s/tools.log", g_root);
    /* nvcc's way with its arguments: each pasted into one sh command line in double quotes */
    stand_in("nvcc", "cmd=:\nfor a in \"$@\"; do cmd=\"$cmd \\\"$a\\\"\"; done\nsh -c \"$cmd\"\nexit 1\n");
    stand_in("ptxas", "exit 1\n");
    stand_in("nvdisasm", "exit 1\n");
    stand_in("cuobjdump", "exit 1\n");
    stand_in("ncu", "exit 1\n");
    setenv("WARPSCOPE_PTXGEN", "nvcc", 1);   /* no NVRTC: every compile reaches the stand-in */
    setenv("WARPSCOPE_CACHE", "off", 1);     /* nothing kept between inputs */
    setenv("WARPSCOPE_SASS", "off", 1);
    setenv("WARPSCOPE_CATALOG", g_run, 1);   /* bare names are the run folder's k.cu */
    setenv("TMPDIR", g_tmp, 1);
    return 0;
}

/* The next section of the input (up to a "\n----\n" line), NUL-terminated in place. */
static char *section(char **p)
{
    if (!*p) return NULL;
    char *s = *p, *end = strstr(s, "\n----\n");
    if (end) {
        *end = 0;
        *p = end + 6;
    } else {
        *p = NULL;
    }
    return s;
}

static bool allowed(const char *name, char allow[][256], int nallow)
{
    static const char *const inputs[] = {"k.cu", "k.ptx", "r.json", "tmp"};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
        if (!strcmp(name, inputs[i])) return true;
    for (int i = 0; i < nallow; i++)
        if (!strcmp(name, allow[i])) return true;
    return false;
}

/* The first component of path as seen from the run folder (where a --record lands). */
static void first_component(const char *path, char *out, size_t cap)
{
    while (path[0] == '.' && path[1] == '/') path += 2;
    snprintf(out, cap, "%.*s", (int)strcspn(path, "/"), path);
}

static void check_folder(const char *dir, char allow[][256], int nallow, bool root)
{
    DIR *d = opendir(dir);
    if (!d) die("cannot list", dir);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (root ? strcmp(e->d_name, "run") && strcmp(e->d_name, "tools") && strcmp(e->d_name, "tools.log") &&
                       !allowed(e->d_name, allow, nallow)
                 : !allowed(e->d_name, allow, nallow))
            die(root ? "a file appeared beside the run folder" : "a file appeared that no output option named",
                e->d_name);
    }
    closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *p = text;
    const char *cu = section(&p), *line = section(&p), *json = section(&p), *ptx = section(&p);
    nftw(g_run, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    if (mkdir(g_run, 0755) || mkdir(g_tmp, 0755)) die("mkdir", g_run);
    unlink(g_log);
    char path[160];
    snprintf(path, sizeof path, "%s/k.cu", g_run);
    write_file(path, cu, strlen(cu), 0);
    if (json) {
        snprintf(path, sizeof path, "%s/r.json", g_run);
        write_file(path, json, strlen(json), 0);
    }
    if (ptx) {
        char head[64];
        int n = snprintf(head, sizeof head, "// warpscope-source-hash: %016llx\n",
                         (unsigned long long)ws_source_hash(cu, strlen(cu)));
        size_t pl = strlen(ptx);
        char *all = malloc((size_t)n + pl);
        if (all) {
            memcpy(all, head, (size_t)n);
            memcpy(all + n, ptx, pl);
            snprintf(path, sizeof path, "%s/k.ptx", g_run);
            write_file(path, all, (size_t)n + pl, 0);
            free(all);
        }
    }
    /* the command line: words on blanks; K and R name the input files */
    static char words[MAX_WORDS + 2][256];
    char *argv[MAX_WORDS + 4];
    int argc = 0;
    static char allow[MAX_WORDS][256];
    int nallow = 0;
    for (const char *s = line ? line : ""; *s && argc < MAX_WORDS;) {
        s += strspn(s, " \t\r\n");
        size_t n = strcspn(s, " \t\r\n");
        if (!n) break;
        snprintf(words[argc], sizeof words[argc], "%.*s", (int)(n < 255 ? n : 255), s);
        if (!strcmp(words[argc], "K")) snprintf(words[argc], sizeof words[argc], "k.cu");
        if (!strncmp(words[argc], "K:", 2)) {
            char rest[256];
            snprintf(rest, sizeof rest, "%s", words[argc] + 2);
            snprintf(words[argc], sizeof words[argc], "k.cu:%.240s", rest);
        }
        if (!strcmp(words[argc], "R")) snprintf(words[argc], sizeof words[argc], "r.json");
        argv[argc] = words[argc];
        argc++;
        s += n;
    }
    if (!argc) {
        snprintf(words[0], sizeof words[0], "sim");
        argv[argc++] = words[0];
    }
    /* every output path named: the value after --record, or --record=F */
    for (int i = 1; i < argc; i++) {
        const char *v = !strcmp(argv[i], "--record") && i + 1 < argc ? argv[i + 1]
                        : !strncmp(argv[i], "--record=", 9) ? argv[i] + 9 : NULL;
        if (v && nallow < MAX_WORDS) {
            first_component(v, allow[nallow], sizeof allow[nallow]);
            char lock[256];
            snprintf(lock, sizeof lock, "%.200s.lock", allow[nallow]);
            nallow++;
            if (nallow < MAX_WORDS) snprintf(allow[nallow++], 256, "%s", lock);
        }
    }
    int (*cmd)(int, char **) = !strcmp(argv[0], "ptx") ? ws_cmd_ptx
                               : !strcmp(argv[0], "list") ? ws_cmd_list
                               : !strcmp(argv[0], "check") ? ws_cmd_check : ws_cmd_sim;
    if (cmd == ws_cmd_sim && argc < MAX_WORDS + 2) { /* a small budget: a long run is no finding */
        snprintf(words[MAX_WORDS], sizeof words[MAX_WORDS], "--budget=200000");
        argv[argc++] = words[MAX_WORDS];
    }
    argv[argc] = NULL;
    char here[4096];
    if (!getcwd(here, sizeof here) || chdir(g_run)) die("chdir", g_run);
    int rc = cmd(argc, argv);
    fflush(stdout);
    if (chdir(here)) die("chdir back", here);
    if (rc < 0 || rc > WS_EXIT_INTERNAL) die("exit code outside the table", argv[0]);
    check_folder(g_run, allow, nallow, false);
    check_folder(g_root, allow, nallow, true);
    DIR *t = opendir(g_tmp);
    if (!t) die("TMPDIR was removed", g_tmp);
    for (struct dirent *e; (e = readdir(t));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) die("a temporary file was left in TMPDIR", e->d_name);
    closedir(t);
    FILE *lf = fopen(g_log, "r");
    for (char l[64]; lf && fgets(l, sizeof l, lf);) {
        l[strcspn(l, "\n")] = 0;
        if (strcmp(l, "nvcc") && strcmp(l, "ptxas") && strcmp(l, "nvdisasm") && strcmp(l, "cuobjdump") && strcmp(l, "ncu"))
            die("an unknown tool ran", l);
    }
    if (lf) fclose(lf);
    free(text);
    return 0;
}
