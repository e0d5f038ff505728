/* viz_steps_job.c - the full recording of the shown blocks on a thread, swapped in for the
 * first batch (see viz_steps_job.h). */
#include "viz_steps_job.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"

struct viz_steps_job {
    pthread_t thread;
    struct ws_catalog *cat;
    viz_record_opts o[2];
    int n;
    viz_recording rec[2];
    int rc[2];
    ws_error err[2];
    atomic_bool done;
};

static void *job_main(void *arg)
{
    viz_steps_job *j = arg;
    for (int i = 0; i < j->n; i++) {
        memset(&j->err[i], 0, sizeof j->err[i]);
        j->rc[i] = viz_record_shown(j->cat, &j->o[i], &j->rec[i], &j->err[i]);
    }
    atomic_store(&j->done, true);
    return NULL;
}

viz_steps_job *viz_steps_job_start(struct ws_catalog *cat, const viz_record_opts *o, const char *const *kernels, int n)
{
    viz_steps_job *j = n >= 1 && n <= 2 ? calloc(1, sizeof *j) : NULL;
    if (!j)
        return NULL;
    j->cat = cat;
    j->n = n;
    for (int i = 0; i < n; i++) {
        j->o[i] = *o;
        j->o[i].kernel = kernels[i];
        j->o[i].quiet = 1;                       /* no progress line under the window */
    }
    atomic_init(&j->done, false);
    pthread_attr_t at;
    int bad = pthread_attr_init(&at);
    if (!bad)
        pthread_attr_setstacksize(&at, 16u << 20); /* room for the interpreter, as on the main thread */
    if (bad || pthread_create(&j->thread, &at, job_main, j)) {
        if (!bad)
            pthread_attr_destroy(&at);
        free(j);
        return NULL;
    }
    pthread_attr_destroy(&at);
    return j;
}

bool viz_steps_job_done(viz_steps_job *j)
{
    return j && atomic_load(&j->done);
}

void viz_steps_take(viz_recording *to, viz_recording *from)
{
    free(to->steps);
    to->steps = from->steps;
    to->nsteps = from->nsteps;
    to->cap = from->cap;
    to->max_steps = from->max_steps;
    to->truncated = from->truncated;
    to->blocks_simulated = from->blocks_simulated;
    to->warm_first = from->warm_first;
    to->warm_partial = from->warm_partial;
    from->steps = NULL;
    from->nsteps = from->cap = 0;
    viz_recording_free(from);
}

int viz_steps_job_finish(viz_steps_job *j, viz_recording *recs, ws_error *err)
{
    pthread_join(j->thread, NULL);
    int rc = WS_EXIT_OK;
    for (int i = 0; i < j->n; i++) {
        if (j->rc[i]) {                          /* the batch stays: it ran the same run this far */
            if (!rc) {
                rc = j->rc[i];
                *err = j->err[i];
            }
            viz_recording_free(&j->rec[i]);
            continue;
        }
        viz_steps_take(&recs[i], &j->rec[i]);
    }
    free(j);
    return rc;
}
