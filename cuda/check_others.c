/* check_others.c - the table of other GPU runs (see check_others.h): a flat array, searched
 * linearly (a corpus run is ~800 rows; a cause is looked up per differing row). */
#include "check_others.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu_csv.h"

#define MAX_FIELDS 32

typedef struct {
    char kernel[96], metric[CU_METRIC_NAME_MAX];
    double value;
    int file;        /* index into files */
    char launch[48]; /* which launch of the kernel in its file: the "repeat" and "ID" columns */
} other;

static other *rows;
static int nrows, caprows;
static char (*files)[512];
static int nfiles;

void chk_others_clear(void)
{
    free(rows);
    free(files);
    rows = NULL;
    files = NULL;
    nrows = caprows = nfiles = 0;
}

static int column(char **f, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(f[i], name)) return i;
    return -1;
}

int chk_others_load(const char *path, ws_error *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        ws_error_set(err, path, 0, 0, "cannot read this other GPU run");
        return -1;
    }
    char (*nf)[512] = realloc(files, (size_t)(nfiles + 1) * sizeof *files);
    if (!nf) {
        fclose(fp);
        ws_error_set(err, path, 0, 0, "out of memory");
        return -1;
    }
    files = nf;
    snprintf(files[nfiles], sizeof files[nfiles], "%s", path);
    char line[4096], storage[4096], *f[MAX_FIELDS];
    int ck = -1, cm = -1, cv = -1, cr = -1, ci = -1, added = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = 0;
        int n = cu_csv_split(line, f, MAX_FIELDS, storage, sizeof storage);
        if (n <= 0) continue;
        if (ck < 0) { /* the header */
            ck = column(f, n, "corpus kernel");
            cm = column(f, n, "Metric Name");
            cv = column(f, n, "Metric Value");
            cr = column(f, n, "repeat");
            ci = column(f, n, "ID");
            if (ck < 0 || cm < 0 || cv < 0) break;
            continue;
        }
        double v;
        if (ck >= n || cm >= n || cv >= n || !strcmp(f[ck], "corpus kernel") || cu_ncu_number(f[cv], &v)) continue;
        if (nrows == caprows) {
            int nc = caprows ? 2 * caprows : 1024;
            other *r = realloc(rows, (size_t)nc * sizeof *r);
            if (!r) break;
            rows = r;
            caprows = nc;
        }
        other *o = &rows[nrows++];
        snprintf(o->kernel, sizeof o->kernel, "%s", f[ck]);
        snprintf(o->metric, sizeof o->metric, "%s", f[cm]);
        o->value = v;
        o->file = nfiles;
        snprintf(o->launch, sizeof o->launch, "%.20s|%.20s", cr >= 0 && cr < n ? f[cr] : "", ci >= 0 && ci < n ? f[ci] : "");
        added++;
    }
    fclose(fp);
    if (ck < 0 || cm < 0 || cv < 0) {
        ws_error_set(err, path, 1, 0, "not an ncu CSV with a \"corpus kernel\" column (scripts/gpu-corpus-detail.sh)");
        return -1;
    }
    nfiles++;
    return added;
}

const char *chk_others_file(int i)
{
    return i >= 0 && i < nfiles ? files[i] : NULL;
}

/* The number of blocks launch o's run launched (its launch__grid_size row), or -1 where that
 * run has none. */
static double blocks_of(const other *o)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].file == o->file && !strcmp(rows[i].launch, o->launch) && !strcmp(rows[i].kernel, o->kernel) &&
            !strcmp(rows[i].metric, "launch__grid_size"))
            return rows[i].value;
    return -1;
}

bool chk_others_range_of(const char *kernel, const char *metric, long long blocks, int *n, double *lo, double *hi,
                         const char **file)
{
    int k = 0;
    for (int i = 0; kernel && metric && i < nrows; i++) {
        const other *o = &rows[i];
        if (strcmp(o->kernel, kernel) || strcmp(o->metric, metric)) continue;
        if (blocks > 0 && blocks_of(o) != (double)blocks) continue;
        if (!k++) {
            *lo = *hi = o->value;
            *file = files[o->file];
        }
        if (o->value < *lo) *lo = o->value;
        if (o->value > *hi) *hi = o->value;
    }
    *n = k;
    return k > 0;
}

bool chk_others_range(const char *kernel, const char *metric, int *n, double *lo, double *hi, const char **file)
{
    return chk_others_range_of(kernel, metric, 0, n, lo, hi, file);
}

int chk_others_values(const char *kernel, const char *metric, long long blocks, double *out, int cap)
{
    int k = 0;
    for (int i = 0; kernel && metric && i < nrows && k < cap; i++) {
        const other *o = &rows[i];
        if (strcmp(o->kernel, kernel) || strcmp(o->metric, metric)) continue;
        if (blocks > 0 && blocks_of(o) != (double)blocks) continue;
        out[k++] = o->value;
    }
    return k;
}
