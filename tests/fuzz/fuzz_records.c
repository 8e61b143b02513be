/* libFuzzer target for the stored-record decoders: app records
 * (zbc_app_decode), undo records (zbc_undo_decode) and event lists
 * (zbc_events_decode).  The first byte picks the decoder.  Whatever a
 * decoder accepts must encode, decode again, and encode to the same bytes
 * (no partial object, no non-idempotent form), and nothing may crash or
 * leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apps/app.h"
#include "consensus/events.h"
#include "consensus/state.h"

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static struct zbc_app a1, a2;
static uint8_t enc1[ZBC_APP_RECORD_MAX], enc2[ZBC_APP_RECORD_MAX];

static void app_record(const uint8_t *d, size_t n)
{
    struct zbc_err err;
    if (!zbc_app_decode(&a1, d, n, &err))
        return;
    size_t l1 = zbc_app_encode(&a1, enc1, sizeof enc1);
    ASSERT(l1 > 0);
    ASSERT(zbc_app_decode(&a2, enc1, l1, &err));
    size_t l2 = zbc_app_encode(&a2, enc2, sizeof enc2);
    ASSERT(l1 == l2 && memcmp(enc1, enc2, l1) == 0);
}

static void undo_record(const uint8_t *d, size_t n)
{
    struct zbc_err err;
    struct zbc_undo u, v;
    memset(&u, 0, sizeof u);
    memset(&v, 0, sizeof v);
    if (!zbc_undo_decode(&u, d, n, &err))
        return;
    uint8_t *b1 = NULL, *b2 = NULL;
    size_t l1 = 0, l2 = 0;
    ASSERT(zbc_undo_encode(&u, &b1, &l1, &err));
    ASSERT(zbc_undo_decode(&v, b1, l1, &err));
    ASSERT(zbc_undo_encode(&v, &b2, &l2, &err));
    ASSERT(l1 == l2 && memcmp(b1, b2, l1) == 0);
    free(b1);
    free(b2);
    zbc_undo_free(&u);
    zbc_undo_free(&v);
}

static void event_list(const uint8_t *d, size_t n)
{
    struct zbc_err err;
    struct zbc_events e, f;
    memset(&e, 0, sizeof e);
    memset(&f, 0, sizeof f);
    if (!zbc_events_decode(&e, d, n, &err))
        return;
    uint8_t *b1 = NULL, *b2 = NULL;
    size_t l1 = 0, l2 = 0;
    ASSERT(zbc_events_encode(&e, &b1, &l1, &err));
    ASSERT(zbc_events_decode(&f, b1, l1, &err));
    ASSERT(zbc_events_encode(&f, &b2, &l2, &err));
    ASSERT(l1 == l2 && memcmp(b1, b2, l1) == 0);
    free(b1);
    free(b2);
    zbc_events_free(&e);
    zbc_events_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0:
        app_record(data + 1, size - 1);
        break;
    case 1:
        undo_record(data + 1, size - 1);
        break;
    case 2:
        event_list(data + 1, size - 1);
        break;
    }
    return 0;
}
