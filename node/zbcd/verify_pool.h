/* Parallel stateless checks: a fork-join pool of pthreads (started at
 * the first run, then waiting for the next) for the
 * signature work of a block (docs/benchmarks.md "Verification").
 *
 * zbc_verify_pool_precheck is zbc_block_precheck with the transactions'
 * stateless checks spread over the pool's threads.  Its verdict and error
 * text do not depend on the thread count: every transaction below the
 * first failing one is checked, and the failure reported is the lowest
 * failing index's, prefixed "block transaction <i>: " as the sequential
 * precheck reports it.  The node uses it for blocks from peers, zbc-audit
 * for its batches (zbc_verify_pool_run). */
#ifndef ZBC_VERIFY_POOL_H
#define ZBC_VERIFY_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "consensus/apply.h"
#include "crypto/err.h"

#define ZBC_VERIFY_POOL_MAX 64 /* threads */

struct zbc_verify_pool;

/* threads: 0 = the online cores (sysconf), capped at ZBC_VERIFY_POOL_MAX.
 * Initialises libsodium and the hash module's lazy state first (neither
 * may be first touched by two threads at once).  NULL on failure. */
struct zbc_verify_pool *zbc_verify_pool_new(unsigned threads);
void zbc_verify_pool_free(struct zbc_verify_pool *p);
unsigned zbc_verify_pool_threads(const struct zbc_verify_pool *p);

/* Calls fn(ctx, i) once for every i in [0, n), on up to the pool's thread
 * count (this thread included), and returns when all calls are done —
 * without waiting for a helper thread the scheduler has not started yet
 * (it finds nothing left and ends; ctx is never touched after the
 * return).  Calls for different i may run at once and in any order.  A
 * thread that cannot be started leaves its work to the others. */
void zbc_verify_pool_run(struct zbc_verify_pool *p, size_t n,
                         void (*fn)(void *ctx, size_t i), void *ctx);

/* zbc_block_precheck_known with the transactions checked in parallel
 * (known may be NULL); same results, cb as there. */
ZBC_WUR int zbc_verify_pool_precheck(struct zbc_verify_pool *p,
                                     struct zbc_checked_block *cb,
                                     const struct zbc_genesis *g,
                                     const struct zbc_parent *parent,
                                     const struct zbc_block *b,
                                     uint64_t local_now_ms,
                                     const struct zbc_tx_known *known,
                                     struct zbc_err *err);

#endif
