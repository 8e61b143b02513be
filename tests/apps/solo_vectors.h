/* The catalogue vectors of tests/vectors/fair_catalogue.json (computed by
 * tests/tools/fair_catalogue.py from docs/games.md) for the multi-step solo game tests:
 * the cases of one game and the seed of a case.  Include after testlib.h. */
#ifndef ZBC_TEST_SOLO_VECTORS_H
#define ZBC_TEST_SOLO_VECTORS_H

#include <jansson.h>
#include <string.h>

#include "crypto/hex.h"
#include "testlib.h"

/* The whole vector file (caller json_decref's it), NULL on failure. */
static inline json_t *sv_load(void)
{
    char *text = test_read_file(ZBC_VECTORS_DIR "/fair_catalogue.json");
    CHECK(text != NULL);
    if (text == NULL)
        return NULL;
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    free(text);
    CHECK(root != NULL);
    return root;
}

/* Case i of root when it is a case of `game` with a client seed the chain takes
 * (<= 64 characters): its server seed bytes, client seed and nonce; NULL otherwise. */
static inline json_t *sv_case(json_t *root, size_t i, const char *game, uint8_t seed[32],
                              const char **client, uint64_t *nonce)
{
    json_t *c = json_array_get(json_object_get(root, "cases"), i);
    const char *g = json_string_value(json_object_get(c, "game"));
    if (g == NULL || strcmp(g, game) != 0)
        return NULL;
    *client = json_string_value(json_object_get(c, "client_seed"));
    *nonce = (uint64_t)json_integer_value(json_object_get(c, "nonce"));
    size_t n = 0;
    const char *server = json_string_value(json_object_get(c, "server_seed"));
    if (*client == NULL || strlen(*client) > 64 || server == NULL ||
        !zbc_hex_decode(seed, 32, &n, server, strlen(server)) || n != 32)
        return NULL;
    return c;
}

static inline size_t sv_count(json_t *root)
{
    return json_array_size(json_object_get(root, "cases"));
}

#endif
