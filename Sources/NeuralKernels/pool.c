// A small pool of worker threads for splitting one inference step across cores. Workers spin
// briefly between steps (a step lasts tens of microseconds to milliseconds, and waking a sleeping
// thread costs about as much), then sleep on a condition variable until the next run.
//
// A step is cut into more parts than threads and every thread, the caller included, claims the
// next unclaimed part until none is left: a worker the OS has not scheduled (a busy shared
// machine) delays nobody, and uneven parts even out. Claims come from one 64-bit ticket holding
// the run's part count and the next part index, so a worker that wakes late never mistakes an
// old run's index for a part of the current one.
#include "NeuralKernels.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/// Spins (each a pause instruction) before a waiting worker sleeps: roughly half a millisecond.
#define NK_POOL_SPINS 20000
/// Spins of the caller waiting for the last parts before it sleeps: a few tens of microseconds.
#define NK_CALLER_SPINS 2000
/// Ticket layout: generation << 40 | parts << 20 | next index.
#define NK_INDEX_BITS 20
#define NK_INDEX_MASK ((1ull << NK_INDEX_BITS) - 1)

/// What a worker thread starts with: its pool and its number (1...workers).
typedef struct {
    nk_pool *pool;
    int thread;
} nk_worker;

struct nk_pool {
    int workers;
    pthread_t *threads;
    nk_worker *starts;
    _Atomic uint64_t ticket;
    _Atomic unsigned generation;
    _Atomic int finished;
    _Atomic int sleepers;
    _Atomic int stop;
    _Atomic int caller_waiting;
    nk_task task;
    void *context;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    pthread_cond_t finished_all;
};

/// Spins this many pauses between offers of the core to other threads (`nk_spin`).
#define NK_SPINS_PER_YIELD 64

static inline void nk_pause(void) {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/// One turn of a spin-wait: a pause, and every `NK_SPINS_PER_YIELD` turns an offer of the core to
/// another runnable thread. On a busy shared machine the thread a spinner waits for may itself be
/// waiting for a core (perhaps this one); on an idle one the offer returns at once.
static inline void nk_spin(int spins) {
    if (spins % NK_SPINS_PER_YIELD == NK_SPINS_PER_YIELD - 1) sched_yield();
    else nk_pause();
}

/// Claims and runs parts of the current run until none is left; `thread` is 0 for the caller,
/// 1...workers for the workers.
static void nk_claim_parts(nk_pool *pool, int thread) {
    for (;;) {
        const uint64_t ticket = atomic_fetch_add(&pool->ticket, 1);
        const int index = (int)(ticket & NK_INDEX_MASK);
        const int parts = (int)((ticket >> NK_INDEX_BITS) & NK_INDEX_MASK);
        if (index >= parts) return;
        // A valid claim: the run is not finished, so task and context are this run's.
        pool->task(pool->context, index, parts, thread);
        if (atomic_fetch_add(&pool->finished, 1) + 1 == parts && atomic_load(&pool->caller_waiting)) {
            pthread_mutex_lock(&pool->mutex);
            pthread_cond_signal(&pool->finished_all);
            pthread_mutex_unlock(&pool->mutex);
        }
    }
}

static void *nk_worker_main(void *argument) {
    nk_worker *worker = argument;
    nk_pool *pool = worker->pool;
    const int thread = worker->thread;
    unsigned seen = 0;
    for (;;) {
        int spins = 0;
        while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop)) {
            if (++spins < NK_POOL_SPINS) {
                nk_spin(spins);
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
        nk_claim_parts(pool, thread);
    }
}

nk_pool *nk_pool_create(int workers) {
    nk_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->threads = calloc(workers > 0 ? (size_t)workers : 1, sizeof(pthread_t));
    pool->starts = calloc(workers > 0 ? (size_t)workers : 1, sizeof(nk_worker));
    if (!pool->threads || !pool->starts) { free(pool->threads); free(pool->starts); free(pool); return NULL; }
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->finished_all, NULL);
    for (int i = 0; i < workers; i++) {
        pool->starts[i] = (nk_worker){pool, i + 1};
        if (pthread_create(&pool->threads[i], NULL, nk_worker_main, &pool->starts[i]) != 0) break;
        pool->workers = i + 1;
    }
    return pool;
}

int nk_pool_workers(const nk_pool *pool) { return pool ? pool->workers : 0; }

void nk_pool_run(nk_pool *pool, nk_task task, void *context, int parts) {
    if (!pool || pool->workers == 0 || parts <= 1 || (uint64_t)parts > NK_INDEX_MASK / 2) {
        for (int part = 0; part < parts; part++) task(context, part, parts, 0);
        return;
    }
    pool->task = task;
    pool->context = context;
    atomic_store(&pool->finished, 0);
    const unsigned generation = atomic_load(&pool->generation) + 1;
    atomic_store(&pool->ticket, ((uint64_t)generation << (2 * NK_INDEX_BITS)) | ((uint64_t)parts << NK_INDEX_BITS));
    atomic_store(&pool->generation, generation);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
    nk_claim_parts(pool, 0);
    // Wait for parts other threads are running: spin a little, then sleep, which also lets the
    // OS move a worker that another process pushed off its core onto this one.
    for (int spins = 0; atomic_load(&pool->finished) < parts; spins++) {
        if (spins < NK_CALLER_SPINS) { nk_spin(spins); continue; }
        atomic_store(&pool->caller_waiting, 1);
        pthread_mutex_lock(&pool->mutex);
        while (atomic_load(&pool->finished) < parts) pthread_cond_wait(&pool->finished_all, &pool->mutex);
        pthread_mutex_unlock(&pool->mutex);
        atomic_store(&pool->caller_waiting, 0);
    }
}

void nk_pool_destroy(nk_pool *pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->stop, 1);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < pool->workers; i++) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->finished_all);
    pthread_mutex_destroy(&pool->mutex);
    free(pool->threads);
    free(pool->starts);
    free(pool);
}
