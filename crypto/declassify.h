/* zbc_declassify(p, len): tells the constant-time check (tests/ctime, run
 * under valgrind memcheck) that bytes computed from a secret are public
 * from here on, so branching on them is no leak: a public key, a proof
 * that is published anyway, whether a key was valid.  Like libsecp256k1's
 * secp256k1_declassify.  A no-op unless compiled with ZBC_CTIME_CHECKS,
 * which only the ctime test program is. */
#ifndef ZBC_DECLASSIFY_H
#define ZBC_DECLASSIFY_H

#ifdef ZBC_CTIME_CHECKS
#include <valgrind/memcheck.h>
#define zbc_declassify(p, len) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (len)))
#else
#define zbc_declassify(p, len) ((void)(p), (void)(len))
#endif

#endif
