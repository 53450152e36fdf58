// A small pool of worker threads for splitting one inference step across cores. Workers spin
// briefly between steps (a step lasts tens of microseconds to milliseconds, and waking a sleeping
// thread costs about as much), then sleep on a condition variable until the next run. Each part is
// claimed by whoever gets to it first: the calling thread takes over the parts of workers the OS
// has not scheduled (a busy shared machine), so nobody waits on a descheduled thread.
#include "NeuralKernels.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/// Spins (each a pause instruction) before a waiting worker sleeps: roughly half a millisecond.
#define NK_POOL_SPINS 20000

struct nk_pool {
    int workers;
    pthread_t *threads;
    _Atomic unsigned generation;
    _Atomic int done;
    _Atomic int *claimed;
    _Atomic int sleepers;
    _Atomic int stop;
    nk_task task;
    void *context;
    int parts;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
};

typedef struct {
    nk_pool *pool;
    int part;
} nk_worker;

static inline void nk_pause(void) {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static void *nk_worker_main(void *argument) {
    nk_worker *worker = argument;
    nk_pool *pool = worker->pool;
    const int part = worker->part;
    free(worker);
    unsigned seen = 0;
    for (;;) {
        int spins = 0;
        while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop)) {
            if (++spins < NK_POOL_SPINS) {
                nk_pause();
                continue;
            }
            pthread_mutex_lock(&pool->mutex);
            atomic_fetch_add(&pool->sleepers, 1);
            while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop))
                pthread_cond_wait(&pool->wake, &pool->mutex);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->mutex);
        }
        if (atomic_load(&pool->stop)) return NULL;
        seen = atomic_load(&pool->generation);
        int expected = 0;
        if (atomic_compare_exchange_strong(&pool->claimed[part], &expected, 1)) {
            if (part < pool->parts) pool->task(pool->context, part, pool->parts);
            atomic_fetch_add(&pool->done, 1);
        }
    }
}

nk_pool *nk_pool_create(int workers) {
    nk_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->threads = calloc(workers > 0 ? (size_t)workers : 1, sizeof(pthread_t));
    pool->claimed = calloc((size_t)(workers > 0 ? workers : 0) + 1, sizeof(_Atomic int));
    if (!pool->threads || !pool->claimed) { free(pool->threads); free(pool->claimed); free(pool); return NULL; }
    for (int i = 0; i <= workers; i++) atomic_store(&pool->claimed[i], 1);
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    for (int i = 0; i < workers; i++) {
        nk_worker *worker = malloc(sizeof *worker);
        if (!worker) break;
        worker->pool = pool;
        worker->part = i + 1;
        if (pthread_create(&pool->threads[i], NULL, nk_worker_main, worker) != 0) { free(worker); break; }
        pool->workers = i + 1;
    }
    return pool;
}

int nk_pool_workers(const nk_pool *pool) { return pool ? pool->workers : 0; }

void nk_pool_run(nk_pool *pool, nk_task task, void *context, int parts) {
    if (!pool || pool->workers == 0 || parts <= 1) {
        for (int part = 0; part < parts; part++) task(context, part, parts);
        return;
    }
    pool->task = task;
    pool->context = context;
    pool->parts = parts;
    atomic_store(&pool->done, 0);
    for (int i = 1; i <= pool->workers; i++) atomic_store(&pool->claimed[i], 0);
    atomic_fetch_add(&pool->generation, 1);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
    // The calling thread takes part 0, then every worker part nobody has claimed yet, then any
    // parts beyond the workers; then it waits for the parts workers are running.
    task(context, 0, parts);
    int mine = 0;
    for (int i = 1; i <= pool->workers; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&pool->claimed[i], &expected, 1)) {
            if (i < parts) task(context, i, parts);
            mine++;
        }
    }
    for (int part = pool->workers + 1; part < parts; part++) task(context, part, parts);
    while (atomic_load(&pool->done) + mine < pool->workers) nk_pause();
}

void nk_pool_destroy(nk_pool *pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->stop, 1);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < pool->workers; i++) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mutex);
    free(pool->threads);
    free(pool->claimed);
    free(pool);
}
