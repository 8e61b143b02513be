/* libFuzzer target for the crash round bytes (docs/protocol-apps.md §12):
 * round and entry records of the CRASH table (zbc_crash_round_decode,
 * zbc_crash_entry_decode), CreateApp params (zbc_crash_parse) and entry
 * move bytes (zbc_crash_parse_entry).  The first byte picks the decoder.
 * Whatever a decoder accepts must encode to the same bytes (no second
 * form of one value), and nothing may crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apps/crash.h"
#include "consensus/apps_crash.h"

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static void round_record(const uint8_t *d, size_t n)
{
    struct zbc_crash_round r;
    struct zbc_err err;
    uint8_t b[ZBC_CRASH_ROUND_BYTES];
    if (!zbc_crash_round_decode(&r, d, n, &err))
        return;
    ASSERT(zbc_crash_round_encode(&r, b) == n && memcmp(b, d, n) == 0);
}

static void entry_record(const uint8_t *d, size_t n)
{
    struct zbc_crash_entry e;
    struct zbc_err err;
    uint8_t b[ZBC_CRASH_ENTRY_RECORD_MAX];
    if (!zbc_crash_entry_decode(&e, d, n, &err))
        return;
    ASSERT(zbc_crash_entry_encode(&e, b) == n && memcmp(b, d, n) == 0);
}

static void params(const uint8_t *d, size_t n)
{
    struct zbc_crash_params p;
    struct zbc_err err;
    uint8_t b[80];
    if (!zbc_crash_parse(&p, d, n, &err))
        return;
    ASSERT(zbc_crash_encode(&p, b, sizeof b) == n && memcmp(b, d, n) == 0);
    if (!zbc_crash_check_stake(&p, n, &err))
        return;
}

static void entry_bytes(const uint8_t *d, size_t n)
{
    uint64_t stake, r;
    uint32_t target;
    struct zbc_err err;
    uint8_t b[ZBC_CRASH_ENTRY_BYTES];
    if (!zbc_crash_parse_entry(d, n, &stake, &target, &err))
        return;
    zbc_crash_encode_entry(b, stake, target);
    ASSERT(n == sizeof b && memcmp(b, d, n) == 0);
    ASSERT(zbc_crash_max_return(stake, target, &r, &err) && r >= stake);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 4) {
    case 0:
        round_record(data + 1, size - 1);
        break;
    case 1:
        entry_record(data + 1, size - 1);
        break;
    case 2:
        params(data + 1, size - 1);
        break;
    default:
        entry_bytes(data + 1, size - 1);
        break;
    }
    return 0;
}
