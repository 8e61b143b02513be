/* libFuzzer target: vote and vote set decoding (consensus/vote.h).  Any
 * input either fails cleanly or decodes to a value whose encoding is
 * exactly the input.  The first byte picks the decoder; the vote set is
 * decoded against a fixed chain of four validators whose hash the fuzzer
 * cannot forge signatures for, so past the header every set fails at a
 * signature: the target checks that path never crashes and never reports
 * a partial set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/vote.h"
#include "crypto/sig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct zbc_genesis chain;

static int cmp_key(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

static void init_chain(void)
{
    if (chain.n_validators != 0)
        return;
    for (uint32_t i = 0; i < 4; i++) {
        uint8_t seed[32], sk[64];
        memset(seed, (int)(i + 1), 32);
        zbc_ed25519_keypair(chain.validators[i], sk, seed);
    }
    qsort(chain.validators, 4, 32, cmp_key);
    chain.n_validators = 4;
    memset(chain.hash, 0x5a, 32);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct zbc_err err;
    init_chain();
    if (size == 0)
        return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    if (data[0] & 1) {
        struct zbc_vote v;
        if (!zbc_vote_decode(&v, p, n, &err))
            return 0;
        uint8_t b[ZBC_VOTE_LEN];
        zbc_vote_encode(b, &v);
        if (n != ZBC_VOTE_LEN || memcmp(b, p, n) != 0)
            abort();
        if (!zbc_vote_verify(&v, &chain, NULL, &err))
            return 0;
        abort(); /* no signature of the fixed keys can be forged */
    }
    static struct zbc_vote votes[ZBC_VALIDATORS_MAX];
    size_t m = 99;
    if (!zbc_vote_set_decode(&chain, p, n, votes, &m, &err)) {
        if (m != 0)
            abort();
        return 0;
    }
    /* unreachable without a signature of the fixed keys: a decoded set
     * must be well formed */
    if (m == 0 || m > chain.n_validators ||
        n != ZBC_VOTE_SET_HEADER_LEN + m * ZBC_VOTE_SET_ENTRY_LEN)
        abort();
    return 0;
}
