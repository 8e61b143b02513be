/* A full disk, made without any hook in the library: a file size limit of
 * 0 bytes (RLIMIT_FSIZE; the test's main ignores SIGXFSZ) makes every
 * write of the process to a file fail with EFBIG, as a full disk fails it
 * with ENOSPC; LMDB writes the data pages of a commit before its meta
 * page, so the commit fails and the ledger keeps its last commit.
 * Header-only, for tests/node; include after testlib.h. */
#ifndef ZBC_TEST_DISK_FULL_H
#define ZBC_TEST_DISK_FULL_H

#include <sys/resource.h>

static struct rlimit disk_full_saved;

__attribute__((unused)) static void disk_full(void)
{
    CHECK(getrlimit(RLIMIT_FSIZE, &disk_full_saved) == 0);
    struct rlimit none = {0, disk_full_saved.rlim_max};
    CHECK(setrlimit(RLIMIT_FSIZE, &none) == 0);
}

__attribute__((unused)) static void disk_freed(void)
{
    CHECK(setrlimit(RLIMIT_FSIZE, &disk_full_saved) == 0);
}

#endif
