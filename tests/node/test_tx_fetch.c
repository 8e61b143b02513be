/* Transaction requests in flight (node/zbcd/tx_fetch.h): one request per
 * hash, the other announcers remembered and asked in order after a
 * time-out, late answers, a full table taking nothing new, peers that go,
 * and a long random run whose count never passes the cap. */
#include <string.h>

#include "crypto/hash.h"
#include "node/zbcd/tx_fetch.h"
#include "testlib.h"

static void hash_of(uint8_t h[32], uint32_t i)
{
    uint8_t b[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16),
                    (uint8_t)(i >> 24)};
    zbc_sha3_256(h, b, sizeof b);
}

/* What the time-out pass told the caller. */
struct log {
    uint64_t expired[16], asked[16];
    size_t n_exp, n_ask, n_omitted;
    uint64_t refuse;  /* ask() answers false for this peer */
};

static void cb_expired(void *arg, const uint8_t h[32], uint64_t peer,
                       bool omitted)
{
    (void)h;
    struct log *l = arg;
    l->n_omitted += omitted;
    if (l->n_exp < 16)
        l->expired[l->n_exp++] = peer;
}

static bool cb_ask(void *arg, const uint8_t h[32], uint64_t peer,
                   uint32_t *seq)
{
    (void)h;
    struct log *l = arg;
    if (peer == l->refuse)
        return false;
    *seq = 100 + (uint32_t)l->n_ask;
    if (l->n_ask < 16)
        l->asked[l->n_ask++] = peer;
    return true;
}

static void test_requests(void)
{
    struct zbc_txf *t = zbc_txf_new(4, 1000);
    CHECK(t != NULL);
    if (t == NULL)
        return;
    struct log l = {0};
    struct zbc_txf_cb cb = {cb_expired, cb_ask, &l};
    uint8_t h[8][32];
    for (uint32_t i = 0; i < 8; i++)
        hash_of(h[i], i);
    uint64_t asked;

    /* the first announcer is asked; the next ones wait, at most
     * ZBC_TXF_ALTS of them, each once */
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 1, true, 0, 100), ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 1, true, 0, 100), ZBC_TXF_SKIP);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 2, true, 0, 100), ZBC_TXF_WAIT);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 2, true, 0, 100), ZBC_TXF_SKIP);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 3, false, 0, 100), ZBC_TXF_WAIT);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 4, true, 0, 100), ZBC_TXF_WAIT);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 5, true, 0, 100), ZBC_TXF_SKIP);
    CHECK_EQ_INT(zbc_txf_count(t), 1);
    /* a peer at its own limit is not asked for a new hash: the caller is
     * told to try later (docs/p2p.md §4: it keeps the announcement) */
    CHECK_EQ_INT(zbc_txf_announced(t, h[1], 2, false, 0, 100), ZBC_TXF_LATER);
    CHECK_EQ_INT(zbc_txf_count(t), 1);

    /* not overdue before the deadline */
    zbc_txf_expire(t, 1099, &cb);
    CHECK_EQ_INT(l.n_exp, 0);
    /* overdue: 1 did not deliver, 2 is asked (3 refuses later) */
    zbc_txf_expire(t, 1100, &cb);
    CHECK_EQ_INT(l.n_exp, 1);
    CHECK_EQ_INT(l.expired[0], 1);
    CHECK_EQ_INT(l.n_ask, 1);
    CHECK_EQ_INT(l.asked[0], 2);
    /* another peer's answer is not the one asked for */
    CHECK(!zbc_txf_received(t, h[0], 3, &asked));
    CHECK_EQ_INT(asked, 0);
    /* 1's late answer still counts; the entry goes, in flight from 2 */
    CHECK(zbc_txf_received(t, h[0], 1, &asked));
    CHECK_EQ_INT(asked, 2);
    CHECK_EQ_INT(zbc_txf_count(t), 0);
    CHECK(!zbc_txf_received(t, h[0], 2, &asked));

    /* every announcer fails: the hash is forgotten; a refusing announcer
     * is skipped */
    memset(&l, 0, sizeof l);
    l.refuse = 8;
    CHECK_EQ_INT(zbc_txf_announced(t, h[2], 7, true, 0, 0), ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_announced(t, h[2], 8, true, 0, 0), ZBC_TXF_WAIT);
    CHECK_EQ_INT(zbc_txf_announced(t, h[2], 9, true, 0, 0), ZBC_TXF_WAIT);
    zbc_txf_expire(t, 1000, &cb);
    CHECK_EQ_INT(l.n_ask, 1);
    CHECK_EQ_INT(l.asked[0], 9);
    CHECK_EQ_INT(zbc_txf_count(t), 1);
    zbc_txf_expire(t, 1999, &cb);
    CHECK_EQ_INT(l.n_exp, 1);
    zbc_txf_expire(t, 2000, &cb);
    CHECK_EQ_INT(l.n_exp, 2);
    CHECK_EQ_INT(l.expired[1], 9);
    CHECK_EQ_INT(zbc_txf_count(t), 0);

    /* arrived another way: done */
    CHECK_EQ_INT(zbc_txf_announced(t, h[3], 5, true, 0, 0), ZBC_TXF_ASK);
    zbc_txf_done(t, h[3], &asked);
    CHECK_EQ_INT(asked, 5);
    zbc_txf_done(t, h[3], &asked);
    CHECK_EQ_INT(asked, 0);

    /* a full table takes nothing new and evicts nothing: try later */
    for (uint32_t i = 4; i < 8; i++)
        CHECK_EQ_INT(zbc_txf_announced(t, h[i], 1, true, 0, 0), ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 1, true, 0, 0), ZBC_TXF_LATER);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 2, false, 0, 0), ZBC_TXF_LATER);
    CHECK_EQ_INT(zbc_txf_count(t), 4);
    CHECK_EQ_INT(zbc_txf_announced(t, h[4], 2, true, 0, 0), ZBC_TXF_WAIT);

    /* a peer that goes: what it was asked is overdue at once, and it is
     * no longer an announcer */
    CHECK_EQ_INT(zbc_txf_announced(t, h[5], 3, true, 0, 0), ZBC_TXF_WAIT);
    zbc_txf_peer_gone(t, 3);
    memset(&l, 0, sizeof l);
    zbc_txf_peer_gone(t, 1);
    zbc_txf_expire(t, 1, &cb);
    CHECK_EQ_INT(l.n_exp, 4);
    CHECK_EQ_INT(l.n_ask, 1); /* h4 to peer 2; h5's announcer 3 is gone */
    CHECK_EQ_INT(l.asked[0], 2);
    CHECK_EQ_INT(zbc_txf_count(t), 1);
    CHECK(zbc_txf_received(t, h[4], 2, &asked));
    CHECK_EQ_INT(zbc_txf_count(t), 0);

    /* answers that leave hashes out: those of that request and earlier
     * ones are overdue at once, omitted when the peer is to blame; a
     * later request's hashes wait */
    memset(&l, 0, sizeof l);
    CHECK_EQ_INT(zbc_txf_announced(t, h[0], 4, true, 7, 0), ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_announced(t, h[1], 4, true, 8, 0), ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_announced(t, h[2], 4, true, 9, 0), ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_announced(t, h[1], 5, true, 0, 0), ZBC_TXF_WAIT);
    CHECK_EQ_INT(zbc_txf_answered(t, 3, 9, true), 0); /* another peer */
    CHECK_EQ_INT(zbc_txf_answered(t, 4, 8, true), 2);
    CHECK_EQ_INT(zbc_txf_answered(t, 4, 8, true), 0); /* once */
    zbc_txf_expire(t, 1, &cb);
    CHECK_EQ_INT(l.n_exp, 2);
    CHECK_EQ_INT(l.n_omitted, 2);
    CHECK_EQ_INT(l.n_ask, 1); /* h1 to 5, in its request 100 */
    CHECK_EQ_INT(l.asked[0], 5);
    CHECK_EQ_INT(zbc_txf_count(t), 2);
    /* a large answer: overdue, not blamed; the new request is not an
     * earlier one of peer 4 */
    CHECK_EQ_INT(zbc_txf_answered(t, 5, 100, false), 1);
    CHECK_EQ_INT(zbc_txf_answered(t, 4, 9, false), 1);
    memset(&l, 0, sizeof l);
    zbc_txf_expire(t, 2, &cb);
    CHECK_EQ_INT(l.n_exp, 2);
    CHECK_EQ_INT(l.n_omitted, 0);
    CHECK_EQ_INT(zbc_txf_count(t), 0);
    /* request numbers wrap */
    CHECK_EQ_INT(zbc_txf_announced(t, h[3], 6, true, UINT32_MAX, 0),
                 ZBC_TXF_ASK);
    CHECK_EQ_INT(zbc_txf_answered(t, 6, UINT32_MAX - 1, true), 0);
    CHECK_EQ_INT(zbc_txf_answered(t, 6, 2, true), 1);
    zbc_txf_free(t);
}

/* Random announcements, answers and time-outs: the count stays within
 * the cap and matches a count kept aside. */
static void test_random(void)
{
    enum { CAP = 64, HASHES = 300 };
    struct zbc_txf *t = zbc_txf_new(CAP, 50);
    CHECK(t != NULL);
    if (t == NULL)
        return;
    struct log l = {0};
    struct zbc_txf_cb cb = {cb_expired, cb_ask, &l};
    uint32_t x = 12345;
    uint64_t now = 0;
    for (int step = 0; step < 200000; step++) {
        x = x * 1103515245u + 12345u;
        uint8_t h[32];
        hash_of(h, (x >> 8) % HASHES);
        uint64_t peer = 1 + (x >> 4) % 6, asked;
        switch ((x >> 20) % 4) {
        case 0:
        case 1:
            (void)zbc_txf_announced(t, h, peer, (x >> 28) != 0, 0, now);
            break;
        case 2:
            if ((x >> 29) == 0)
                (void)zbc_txf_answered(t, peer, 0, true);
            else
                (void)zbc_txf_received(t, h, peer, &asked);
            break;
        default:
            now += 7;
            l.n_exp = l.n_ask = 0;
            zbc_txf_expire(t, now, &cb);
            if ((x >> 27) == 0)
                zbc_txf_peer_gone(t, peer);
            break;
        }
        if (zbc_txf_count(t) > CAP) {
            CHECK(zbc_txf_count(t) <= CAP);
            break;
        }
    }
    /* everything overdue and nobody left to ask: empty */
    l.refuse = 0;
    for (uint64_t peer = 1; peer <= 6; peer++)
        zbc_txf_peer_gone(t, peer);
    zbc_txf_expire(t, now + 1000, &cb);
    CHECK_EQ_INT(zbc_txf_count(t), 0);
    zbc_txf_free(t);
}

int main(void)
{
    TEST_RUN(test_requests);
    TEST_RUN(test_random);
    return test_summary("node_tx_fetch");
}
