/* The gossip de-duplication set (node/zbcd/seen_set.h): membership, FIFO
 * eviction order, forgetting, and a long random run against a plain
 * ring-and-scan model (the set it replaced). */
#include <string.h>

#include "crypto/hash.h"
#include "node/zbcd/seen_set.h"
#include "testlib.h"

static void hash_of(uint8_t h[32], uint32_t i)
{
    uint8_t b[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16),
                    (uint8_t)(i >> 24)};
    zbc_sha3_256(h, b, sizeof b);
}

static void test_fifo(void)
{
    struct zbc_seen *s = zbc_seen_new(8);
    CHECK(s != NULL);
    if (s == NULL)
        return;
    uint8_t h[32];
    for (uint32_t i = 0; i < 8; i++) {
        hash_of(h, i);
        CHECK(!zbc_seen_has(s, h));
        zbc_seen_add(s, h);
        CHECK(zbc_seen_has(s, h));
    }
    CHECK_EQ_INT(zbc_seen_count(s), 8);
    /* a hash already held keeps its place: 0 is still the oldest */
    hash_of(h, 0);
    zbc_seen_add(s, h);
    CHECK_EQ_INT(zbc_seen_count(s), 8);
    /* the ninth and tenth push out 0 and 1, in that order */
    hash_of(h, 8);
    zbc_seen_add(s, h);
    hash_of(h, 0);
    CHECK(!zbc_seen_has(s, h));
    hash_of(h, 1);
    CHECK(zbc_seen_has(s, h));
    hash_of(h, 9);
    zbc_seen_add(s, h);
    hash_of(h, 1);
    CHECK(!zbc_seen_has(s, h));
    for (uint32_t i = 2; i < 10; i++) {
        hash_of(h, i);
        CHECK(zbc_seen_has(s, h));
    }
    CHECK_EQ_INT(zbc_seen_count(s), 8);
    /* forgetting frees the entry; its FIFO place goes at its turn */
    hash_of(h, 5);
    zbc_seen_forget(s, h);
    zbc_seen_forget(s, h);
    CHECK(!zbc_seen_has(s, h));
    CHECK_EQ_INT(zbc_seen_count(s), 7);
    hash_of(h, 10); /* replaces 2, the oldest place: still 7 held */
    zbc_seen_add(s, h);
    CHECK_EQ_INT(zbc_seen_count(s), 7);
    hash_of(h, 2);
    CHECK(!zbc_seen_has(s, h));
    hash_of(h, 3);
    CHECK(zbc_seen_has(s, h));
    zbc_seen_free(s);
}

/* The model: the former ring with a linear scan. */
#define MODEL_CAP 64
static uint8_t model[MODEL_CAP][32];
static bool model_live[MODEL_CAP];
static size_t model_next;

static bool model_has(const uint8_t h[32])
{
    for (size_t i = 0; i < MODEL_CAP; i++)
        if (model_live[i] && memcmp(model[i], h, 32) == 0)
            return true;
    return false;
}

static void test_model(void)
{
    struct zbc_seen *s = zbc_seen_new(MODEL_CAP);
    CHECK(s != NULL);
    if (s == NULL)
        return;
    uint64_t x = 88172645463325252ull;
    size_t live = 0, mismatches = 0;
    for (int step = 0; step < 200000; step++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint8_t h[32];
        hash_of(h, (uint32_t)(x % 200)); /* few values: many repeats */
        if (zbc_seen_has(s, h) != model_has(h))
            mismatches++;
        if ((x >> 40) % 4 == 0) {
            zbc_seen_forget(s, h);
            for (size_t i = 0; i < MODEL_CAP; i++)
                if (model_live[i] && memcmp(model[i], h, 32) == 0)
                    model_live[i] = false;
        } else if (!model_has(h)) {
            zbc_seen_add(s, h);
            memcpy(model[model_next], h, 32);
            model_live[model_next] = true;
            model_next = (model_next + 1) % MODEL_CAP;
        }
        live = 0;
        for (size_t i = 0; i < MODEL_CAP; i++)
            live += model_live[i];
        if (zbc_seen_count(s) != live)
            mismatches++;
    }
    CHECK_EQ_INT(mismatches, 0);
    zbc_seen_free(s);
}

/* The node's size: 8192 held, the 8193rd evicts the first. */
static void test_node_size(void)
{
    struct zbc_seen *s = zbc_seen_new(8192);
    CHECK(s != NULL);
    if (s == NULL)
        return;
    uint8_t h[32];
    for (uint32_t i = 0; i < 8193; i++) {
        hash_of(h, i);
        zbc_seen_add(s, h);
    }
    CHECK_EQ_INT(zbc_seen_count(s), 8192);
    hash_of(h, 0);
    CHECK(!zbc_seen_has(s, h));
    size_t held = 0;
    for (uint32_t i = 1; i < 8193; i++) {
        hash_of(h, i);
        held += zbc_seen_has(s, h);
    }
    CHECK_EQ_INT(held, 8192);
    zbc_seen_free(s);
}

int main(void)
{
    TEST_RUN(test_fifo);
    TEST_RUN(test_model);
    TEST_RUN(test_node_size);
    return test_summary("node_seen_set");
}
