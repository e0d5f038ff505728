/* child.c - running another program under limits (see child.h): fork, setrlimit in the child
 * (RLIMIT_CPU, RLIMIT_AS, RLIMIT_FSIZE), exec; the parent polls every 10 ms, keeps the largest
 * address space it sees, and kills the whole process group at the wall-clock limit.
 * Invariant: every child is reaped before ws_child_run returns, and the process group it
 * created is killed on every path out (a tool's own children do not linger). */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_CAP (64ull << 20)   /* bytes of output (and of any file) a child may write */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *slurp_fd(int fd)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    if (lseek(fd, 0, SEEK_SET) < 0) { free(buf); return NULL; }
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) { free(buf); return NULL; }
            buf = nb;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += (size_t)got;
    }
    buf[n] = 0;
    return buf;
}

/* VmPeak of a running process, in bytes; 0 when it cannot be read. */
static uint64_t vm_peak(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmPeak:", 7)) {
            kb = strtoull(line + 7, NULL, 10);
            break;
        }
    fclose(f);
    return kb * 1024;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void gib(uint64_t bytes, char *out, size_t cap)
{
    if (bytes >= (1ull << 30)) snprintf(out, cap, "%.1f GiB", (double)bytes / (double)(1ull << 30));
    else snprintf(out, cap, "%.0f MiB", (double)bytes / (double)(1ull << 20));
}

/* In the child, before exec: its own group, the limits, output to fd. Never returns; an exec
 * that fails writes its errno to report (close-on-exec: the parent reads EOF when exec worked). */
static void child_exec(char *const argv[], char *const envp[], int fd, int report, double cpu_s, uint64_t mem)
{
    setpgid(0, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) { dup2(nul, 0); close(nul); }  /* a tool must not wait for the terminal */
    if (cpu_s > 0) {
        rlim_t s = (rlim_t)ceil(cpu_s);
        struct rlimit rl = {s, s + 1};           /* SIGXCPU at the soft limit, SIGKILL a second later */
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (mem != WS_CHILD_NO_MEM_LIMIT) {
        struct rlimit rl = {(rlim_t)mem, (rlim_t)mem};
        setrlimit(RLIMIT_AS, &rl);
    }
    struct rlimit fs = {(rlim_t)OUTPUT_CAP, (rlim_t)OUTPUT_CAP};
    setrlimit(RLIMIT_FSIZE, &fs);
    signal(SIGPIPE, SIG_DFL);
    execve(argv[0], argv, envp);
    int e = errno;
    if (write(report, &e, sizeof e) < 0) {}
    _exit(127);
}

/* Which limit ended the child, and the clause that says so. */
static void explain(ws_child_result *r, const char *name, bool killed_wall, double wall_s, double cpu_s, uint64_t mem)
{
    char lim[32], used[32];
    if (killed_wall) {
        r->limit = WS_CHILD_LIMIT_WALL;
        snprintf(r->why, sizeof r->why, "%s was stopped after %g s of wall-clock time (its limit)", name, wall_s);
        return;
    }
    if (r->signal == SIGXCPU || (r->signal == SIGKILL && cpu_s > 0 && r->cpu_used_s >= cpu_s - 0.05)) {
        r->limit = WS_CHILD_LIMIT_CPU;
        snprintf(r->why, sizeof r->why, "%s was stopped after %g s of CPU time (its limit)", name, ceil(cpu_s));
        return;
    }
    if (r->status == 0 && !r->signal) return;
    /* an allocation refused under RLIMIT_AS shows as a failure, not a signal of its own: put it on
     * the memory limit when the tool came close to it or says it ran out */
    const char *o = r->output ? r->output : "";
    bool says_memory = strcasestr(o, "memory") || strcasestr(o, "alloc") || r->signal == SIGSEGV ||
                       r->signal == SIGABRT;
    if (mem != WS_CHILD_NO_MEM_LIMIT && (r->peak_bytes >= mem / 4 * 3 || says_memory)) {
        r->limit = WS_CHILD_LIMIT_MEMORY;
        gib(mem, lim, sizeof lim);
        gib(r->peak_bytes, used, sizeof used);
        if (r->peak_bytes)
            snprintf(r->why, sizeof r->why, "%s stopped at its memory limit (%s of address space; it reached %s)", name,
                     lim, used);
        else
            snprintf(r->why, sizeof r->why, "%s stopped at its memory limit (%s of address space)", name, lim);
        return;
    }
    if (r->signal) snprintf(r->why, sizeof r->why, "%s was ended by signal %d (%s)", name, r->signal, strsignal(r->signal));
    else snprintf(r->why, sizeof r->why, "%s exited with status %d", name, r->status);
}

extern char **environ;

/* The environment with TMPDIR set to tmpdir and TMP/TEMP removed, or NULL (out of memory).
 * Built before fork: the child may only make async-signal-safe calls. Free with free(). */
static char **env_with_tmpdir(const char *tmpdir)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++) n++;
    size_t vlen = strlen("TMPDIR=") + strlen(tmpdir) + 1;
    char **out = malloc((n + 2) * sizeof *out + vlen);
    if (!out) return NULL;
    char *var = (char *)(out + n + 2);
    snprintf(var, vlen, "TMPDIR=%s", tmpdir);
    size_t k = 0;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "TMPDIR=", 7) && strncmp(*e, "TMP=", 4) && strncmp(*e, "TEMP=", 5)) out[k++] = *e;
    out[k++] = var;
    out[k] = NULL;
    return out;
}

int ws_child_run(char *const argv[], const ws_child_limits *lim, ws_child_result *r, ws_error *err)
{
    memset(r, 0, sizeof *r);
    r->status = -1;
    double wall_s = lim && lim->wall_s > 0 ? lim->wall_s : WS_CHILD_WALL_S;
    double cpu_s = !lim || lim->cpu_s == 0 ? WS_CHILD_CPU_S : lim->cpu_s;
    uint64_t mem = !lim || lim->mem_bytes == 0 ? WS_CHILD_MEM_BYTES : lim->mem_bytes;
    const char *name = base_name(argv[0]);
    const char *tmpdir = getenv("TMPDIR");
    char tmpl[600];
    snprintf(tmpl, sizeof tmpl, "%s/warpscope-child-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(tmpl);
    if (fd < 0 && tmpdir && *tmpdir) {           /* a TMPDIR that is no folder: /tmp, as POSIX tools do */
        snprintf(tmpl, sizeof tmpl, "/tmp/warpscope-child-XXXXXX");
        fd = mkstemp(tmpl);
    }
    if (fd < 0) {
        ws_error_set(err, tmpl, 0, 0, "cannot create a temporary file for the output of %s: %s", name, strerror(errno));
        return -1;
    }
    unlink(tmpl);                                /* the open descriptor keeps it alive */
    fflush(stdout);
    fflush(stderr);
    int report[2];
    if (pipe2(report, O_CLOEXEC)) {
        ws_error_set(err, argv[0], 0, 0, "cannot start %s: pipe failed: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    char **envp = lim && lim->tmpdir ? env_with_tmpdir(lim->tmpdir) : environ;
    pid_t pid = envp ? fork() : -1;
    if (pid < 0) {
        ws_error_set(err, argv[0], 0, 0, "cannot start %s: %s", name, envp ? strerror(errno) : "out of memory");
        if (envp != environ) free(envp);
        close(fd);
        close(report[0]);
        close(report[1]);
        return -1;
    }
    if (pid == 0) {
        close(report[0]);
        child_exec(argv, envp, fd, report[1], cpu_s, mem);
    }
    if (envp != environ) free(envp);
    setpgid(pid, pid);                           /* both sides: whichever runs first */
    close(report[1]);
    int exec_errno = 0;                          /* until exec the child is a copy of this process: its
                                                    /proc figures are ours, so wait for exec first */
    ssize_t got;
    while ((got = read(report[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got != (ssize_t)sizeof exec_errno) exec_errno = 0;
    double t0 = now_s();
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    bool killed = false;
    for (;;) {
        uint64_t peak = vm_peak(pid);            /* before the wait: a reaped child has no /proc */
        if (peak > r->peak_bytes) r->peak_bytes = peak;
        pid_t w = wait4(pid, &st, WNOHANG, &ru);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            ws_error_set(err, argv[0], 0, 0, "waiting for %s failed: %s", name, strerror(errno));
            kill(-pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
            close(fd);
            return -1;
        }
        if (!killed && now_s() - t0 > wall_s) {
            kill(-pid, SIGKILL);                 /* the group: the tool and whatever it started */
            killed = true;
        }
        struct timespec ts = {0, 10000000};      /* 10 ms */
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL);                         /* anything the tool left running in its group */
    r->wall_used_s = now_s() - t0;
    r->cpu_used_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
                    1e-6 * (double)ru.ru_stime.tv_usec;
    r->output = slurp_fd(fd);
    close(fd);
    if (!r->output) {
        ws_error_set(err, argv[0], 0, 0, "out of memory reading the output of %s", name);
        return -1;
    }
    if (WIFEXITED(st)) r->status = WEXITSTATUS(st);
    else if (WIFSIGNALED(st)) r->signal = WTERMSIG(st);
    if (exec_errno) {
        snprintf(r->why, sizeof r->why, "cannot run %.250s: %s", argv[0], strerror(exec_errno));
        return 0;
    }
    explain(r, name, killed, wall_s, cpu_s, mem);
    r->why[strcspn(r->why, "\n")] = 0;
    return 0;
}

int ws_env_seconds(const char *name, double def, double max, double *out, ws_error *err)
{
    const char *v = getenv(name);
    *out = def;
    if (!v || !*v) return 0;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(x) || x <= 0 || x > max) {
        ws_error_set(err, "<environment>", 0, 0, "%s='%.60s': expected a number of seconds above 0 and at most %.0f",
                     name, v, max);
        return -1;
    }
    *out = x;
    return 0;
}
