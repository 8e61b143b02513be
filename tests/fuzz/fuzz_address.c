/* libFuzzer target: typed address bytes (zbc_addr_read) and address text
 * (zbc_addr_parse_text, zbc_addr_zbc_parse).  Beyond memory safety it
 * checks that every failure names its reason, that bytes re-encode to
 * themselves, and that text round trips: parse -> to_text -> parse gives
 * the same address and to_text is a fixed point. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/address.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                         \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz_address: %s failed at line %d\n", #cond,    \
                    __LINE__);                                                \
            abort();                                                          \
        }                                                                     \
    } while (0)

static void text_round_trip(const struct zbc_addr *a)
{
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, a);
    REQUIRE(strlen(text) < ZBC_ADDR_TEXT_MAX);
    struct zbc_addr b;
    struct zbc_err err = {{0}};
    if (!zbc_addr_parse_text(&b, text, &err)) {
        fprintf(stderr, "fuzz_address: printed form '%s' does not parse: %s\n", text, err.msg);
        abort();
    }
    REQUIRE(zbc_addr_equal(a, &b));
    char again[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(again, &b);
    REQUIRE(strcmp(text, again) == 0);
}

static void fuzz_bytes(const uint8_t *data, size_t size)
{
    struct zbc_addr a;
    size_t used = 0;
    struct zbc_err err = {{0}};
    if (!zbc_addr_read(&a, data, size, &used, &err)) {
        REQUIRE(err.msg[0] != '\0');
        return;
    }
    REQUIRE(used == 4 + (size_t)a.len && used <= size);
    uint8_t out[ZBC_ADDR_BYTES_MAX];
    size_t n = zbc_addr_write(out, &a);
    REQUIRE(n == used && memcmp(out, data, n) == 0);
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, &a);
    if (zbc_addr_type_supported(a.type))
        text_round_trip(&a);
}

static void fuzz_text(const char *s)
{
    struct zbc_addr a;
    struct zbc_err err = {{0}};
    if (zbc_addr_parse_text(&a, s, &err)) {
        REQUIRE(zbc_addr_type_supported(a.type));
        size_t plen = 0;
        REQUIRE(zbc_addr_payload_len(a.type, &plen) && plen == a.len);
        text_round_trip(&a);
    } else {
        REQUIRE(err.msg[0] != '\0');
    }
    uint8_t pk[32];
    char prefix[4];
    err.msg[0] = '\0';
    if (zbc_addr_zbc_parse(pk, prefix, s, &err)) {
        REQUIRE(strlen(prefix) == 3);
        char text[ZBC_ADDR_TEXT_MAX];
        zbc_addr_zbc_text(text, pk, prefix);
        uint8_t back[32];
        REQUIRE(zbc_addr_zbc_parse(back, NULL, text, &err));
        REQUIRE(memcmp(back, pk, 32) == 0);
    } else {
        REQUIRE(err.msg[0] != '\0');
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes(data, size);
    char *s = malloc(size + 1);
    if (s == NULL)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    fuzz_text(s);
    free(s);
    return 0;
}
