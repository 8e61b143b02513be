/* Parallel stateless checks (verify_pool.h). */
#include "node/zbcd/verify_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/hash.h"

/* Work is handed out in chunks from a shared counter, so a thread that
 * draws expensive items (secp256k1 next to Ed25519) does not hold the
 * others back.  The caller returns once every item is done, not once
 * every thread has left: a worker the scheduler has not woken yet (a busy
 * machine) finds no work left when it runs and goes back to sleep without
 * touching the caller's context.  The run is shared (refs) and freed by
 * whoever leaves it last.
 *
 * The pool's threads - 1 workers are started at the first run and then
 * wait for the next one (a run used to start its own detached helpers:
 * thread creation per batch, and on this 2-core machine the helper often
 * started after the caller had done most items).  A run while another is
 * in progress (another thread's, or one nested in a work function) gets
 * no workers: it runs on its own thread. */
#define CHUNK 4

struct run {
    size_t n;
    atomic_size_t next;
    atomic_size_t done;
    atomic_uint refs;
    void (*fn)(void *ctx, size_t i);
    void *ctx;
    pthread_mutex_t lock; /* with all_done: the caller's wait */
    pthread_cond_t all_done;
};

struct zbc_verify_pool {
    unsigned threads;
    pthread_mutex_t mu;    /* guards the rest */
    pthread_cond_t wake;   /* a new run, or stop */
    struct run *cur;       /* the run workers may join; NULL: none */
    uint64_t gen;          /* runs published */
    bool started, stop;
    unsigned n_workers;
    pthread_t tid[ZBC_VERIFY_POOL_MAX];
};

struct zbc_verify_pool *zbc_verify_pool_new(unsigned threads)
{
    /* libsodium picks its implementations and the hash module fetches
     * RIPEMD-160 (a lazy static) here, before any worker runs */
    if (sodium_init() < 0)
        return NULL;
    uint8_t warm[20];
    zbc_ripemd160(warm, "", 0);
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n < 1 ? 1 : n > ZBC_VERIFY_POOL_MAX ? ZBC_VERIFY_POOL_MAX
                                                      : (unsigned)n;
    }
    if (threads > ZBC_VERIFY_POOL_MAX)
        threads = ZBC_VERIFY_POOL_MAX;
    struct zbc_verify_pool *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->threads = threads;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

void zbc_verify_pool_free(struct zbc_verify_pool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->n_workers; i++)
        pthread_join(p->tid[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

unsigned zbc_verify_pool_threads(const struct zbc_verify_pool *p)
{
    return p->threads;
}

static void run_release(struct run *r)
{
    if (atomic_fetch_sub(&r->refs, 1) != 1)
        return;
    pthread_cond_destroy(&r->all_done);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static void work(struct run *r)
{
    for (;;) {
        size_t i = atomic_fetch_add(&r->next, CHUNK);
        if (i >= r->n)
            break;
        size_t end = r->n - i < CHUNK ? r->n : i + CHUNK;
        for (size_t k = i; k < end; k++)
            r->fn(r->ctx, k);
        if (atomic_fetch_add(&r->done, end - i) + (end - i) == r->n) {
            pthread_mutex_lock(&r->lock);
            pthread_cond_signal(&r->all_done);
            pthread_mutex_unlock(&r->lock);
        }
    }
}

/* A worker: joins each published run once (its reference keeps the run
 * alive, not the caller's context: work() takes no item past the end). */
static void *worker(void *arg)
{
    struct zbc_verify_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && (p->cur == NULL || p->gen == seen))
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop)
            break;
        seen = p->gen;
        struct run *r = p->cur;
        atomic_fetch_add(&r->refs, 1);
        pthread_mutex_unlock(&p->mu);
        work(r);
        run_release(r);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* All on this thread (no shared run could be made). */
static void run_here(size_t n, void (*fn)(void *ctx, size_t i), void *ctx)
{
    for (size_t i = 0; i < n; i++)
        fn(ctx, i);
}

/* Publishes r to the workers (started at the first run); false when
 * another run holds them or none could be started. Called with p->mu. */
static bool publish(struct zbc_verify_pool *p, struct run *r)
{
    if (p->cur != NULL || p->stop)
        return false;
    if (!p->started) {
        p->started = true;
        for (unsigned i = 1; i < p->threads; i++) {
            if (pthread_create(&p->tid[p->n_workers], NULL, worker, p) != 0)
                break;
            p->n_workers++;
        }
    }
    if (p->n_workers == 0)
        return false;
    p->cur = r;
    p->gen++;
    pthread_cond_broadcast(&p->wake);
    return true;
}

void zbc_verify_pool_run(struct zbc_verify_pool *p, size_t n,
                         void (*fn)(void *ctx, size_t i), void *ctx)
{
    size_t want = (n + CHUNK - 1) / CHUNK; /* no idle threads */
    unsigned t = p->threads < want ? p->threads : (unsigned)want;
    if (t <= 1) {
        run_here(n, fn, ctx);
        return;
    }
    struct run *r = calloc(1, sizeof *r);
    if (r == NULL) {
        run_here(n, fn, ctx);
        return;
    }
    if (pthread_mutex_init(&r->lock, NULL) != 0) {
        free(r);
        run_here(n, fn, ctx);
        return;
    }
    if (pthread_cond_init(&r->all_done, NULL) != 0) {
        pthread_mutex_destroy(&r->lock);
        free(r);
        run_here(n, fn, ctx);
        return;
    }
    r->n = n;
    r->fn = fn;
    r->ctx = ctx;
    atomic_init(&r->next, 0);
    atomic_init(&r->done, 0);
    atomic_init(&r->refs, 1); /* this thread's */
    pthread_mutex_lock(&p->mu);
    bool shared = publish(p, r);
    pthread_mutex_unlock(&p->mu);
    work(r);
    pthread_mutex_lock(&r->lock);
    while (atomic_load(&r->done) < n)
        pthread_cond_wait(&r->all_done, &r->lock);
    pthread_mutex_unlock(&r->lock);
    if (shared) {
        pthread_mutex_lock(&p->mu);
        p->cur = NULL;
        pthread_mutex_unlock(&p->mu);
    }
    run_release(r);
}

/* ---- block precheck ---- */

struct precheck_job {
    struct zbc_checked_block *cb;
    const struct zbc_genesis *g;
    const struct zbc_tx_known *known;
    atomic_size_t first_fail;  /* lowest failing index so far */
    pthread_mutex_t lock;      /* guards fail_err */
    struct zbc_err fail_err;   /* the error of first_fail */
};

static void check_tx(void *ctx, size_t i)
{
    struct precheck_job *j = ctx;
    /* past a known failure the verdict is decided: skip */
    if (i > atomic_load(&j->first_fail))
        return;
    struct zbc_err e;
    if (zbc_block_precheck_tx(j->cb, j->g, (uint32_t)i, j->known, &e))
        return;
    pthread_mutex_lock(&j->lock);
    if (i < atomic_load(&j->first_fail)) {
        j->fail_err = e;
        atomic_store(&j->first_fail, i);
    }
    pthread_mutex_unlock(&j->lock);
}

int zbc_verify_pool_precheck(struct zbc_verify_pool *p,
                             struct zbc_checked_block *cb,
                             const struct zbc_genesis *g,
                             const struct zbc_parent *parent,
                             const struct zbc_block *b, uint64_t local_now_ms,
                             const struct zbc_tx_known *known,
                             struct zbc_err *err)
{
    if (!zbc_block_precheck_begin(cb, g, parent, b, local_now_ms, err))
        return 0;
    struct precheck_job j = {.cb = cb, .g = g, .known = known};
    atomic_init(&j.first_fail, SIZE_MAX);
    if (pthread_mutex_init(&j.lock, NULL) != 0) {
        zbc_checked_block_free(cb);
        return zbc_fail(err, "cannot create a lock to check a block");
    }
    zbc_verify_pool_run(p, b->n_tx, check_tx, &j);
    pthread_mutex_destroy(&j.lock);
    size_t bad = atomic_load(&j.first_fail);
    if (bad != SIZE_MAX) {
        zbc_checked_block_free(cb);
        if (err != NULL)
            *err = j.fail_err;
        return zbc_fail_prefix(err, "block transaction %u", (unsigned)bad);
    }
    return 1;
}
