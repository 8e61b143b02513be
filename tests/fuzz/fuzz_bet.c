/* libFuzzer target: solo bet params (zbc_bet_parse; docs/protocol-apps.md §4).  Input:
 * app type u8 ‖ params.  When parse succeeds, encoding the bet must reproduce the params
 * exactly, and the outcome from a fixed server seed must never return more than the
 * maximum return the 1 % rule escrows (when that maximum fits in 64 bits); every failure
 * must name its reason. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                         \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz_bet: %s failed at line %d\n", #cond,        \
                    __LINE__);                                                \
            abort();                                                          \
        }                                                                     \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct zbc_bet bet;
    struct zbc_err err = {{0}};
    if (!zbc_bet_parse(&bet, data[0], data + 1, size - 1, &err)) {
        REQUIRE(err.msg[0] != '\0');
        return 0;
    }
    REQUIRE(zbc_bet_is_solo(data[0]));
    uint8_t again[128];
    size_t n = zbc_bet_encode(&bet, again, sizeof again);
    REQUIRE(n == size - 1 && memcmp(again, data + 1, n) == 0);
    static const uint64_t STAKES[] = {0, 1, 100000000, UINT64_MAX / 20000};
    for (size_t i = 0; i < sizeof STAKES / sizeof STAKES[0]; i++) {
        uint64_t max;
        struct zbc_bet_outcome out;
        if (!zbc_bet_max_return(&bet, STAKES[i], &max, &err)) {
            /* only an overflow, which the chain refuses at inclusion */
            REQUIRE(strcmp(err.msg, "bet return overflows 64 bits") == 0);
            continue;
        }
        REQUIRE(zbc_bet_resolve(&bet, STAKES[i], "fuzz", size, &out, &err));
        REQUIRE(out.returns <= max);
    }
    return 0;
}
