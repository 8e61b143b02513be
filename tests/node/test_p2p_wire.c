/* P2P framing and envelope decoding (node/zbcd/p2p_wire.h): byte-exact
 * encoding checked against hand-assembled protobuf bytes; truncated,
 * oversized, empty and garbage input refused; field rules enforced. */
#include <sodium.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hash.h"
#include "consensus/vote.h"
#include "node/zbcd/p2p_wire.h"
#include "testlib.h"

static void test_frame_check(void)
{
    struct zbc_err err = {{0}};
    uint32_t n = 0;
    const uint8_t four[4] = {7, 0, 0, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(four, 3, ZBC_P2P_MAX_MESSAGE, &n, &err),
                 ZBC_P2P_FRAME_NEED_MORE);
    CHECK_EQ_INT(zbc_p2p_frame_check(four, 4, ZBC_P2P_MAX_MESSAGE, &n, &err),
                 ZBC_P2P_FRAME_NEED_MORE);
    CHECK_EQ_INT(n, 7);
    uint8_t buf[11] = {7, 0, 0, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(buf, 10, ZBC_P2P_MAX_MESSAGE, &n, &err),
                 ZBC_P2P_FRAME_NEED_MORE);
    CHECK_EQ_INT(zbc_p2p_frame_check(buf, 11, ZBC_P2P_MAX_MESSAGE, &n, &err), ZBC_P2P_FRAME_READY);
    const uint8_t zero[4] = {0, 0, 0, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(zero, 4, ZBC_P2P_MAX_MESSAGE, &n, &err), ZBC_P2P_FRAME_BAD);
    CHECK(strstr(err.msg, "length is 0") != NULL);
    /* exactly 4 MiB is allowed, one more byte is not */
    const uint8_t max[4] = {0, 0, 0x40, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(max, 4, ZBC_P2P_MAX_MESSAGE, &n, &err),
                 ZBC_P2P_FRAME_NEED_MORE);
    CHECK_EQ_INT(n, 4u << 20);
    const uint8_t over[4] = {1, 0, 0x40, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(over, 4, ZBC_P2P_MAX_MESSAGE, &n, &err), ZBC_P2P_FRAME_BAD);
    CHECK(strstr(err.msg, "above the") != NULL);
    const uint8_t huge[4] = {0xff, 0xff, 0xff, 0xff};
    CHECK_EQ_INT(zbc_p2p_frame_check(huge, 4, ZBC_P2P_MAX_MESSAGE, &n, &err), ZBC_P2P_FRAME_BAD);
    /* before the peer's Hello only 1 KiB; a sealed frame adds its tag */
    const uint8_t kib[4] = {0, 4, 0, 0}, kib1[4] = {1, 4, 0, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(kib, 4, ZBC_P2P_MAX_HELLO, &n, &err),
                 ZBC_P2P_FRAME_NEED_MORE);
    CHECK_EQ_INT(zbc_p2p_frame_check(kib1, 4, ZBC_P2P_MAX_HELLO, &n, &err),
                 ZBC_P2P_FRAME_BAD);
    const uint8_t sealed_max[4] = {16, 0, 0x40, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(sealed_max, 4, ZBC_P2P_MAX_FRAME, &n,
                                     &err), ZBC_P2P_FRAME_NEED_MORE);
    CHECK_EQ_INT(zbc_p2p_frame_check(over, 4, ZBC_P2P_MAX_FRAME, &n, &err),
                 ZBC_P2P_FRAME_NEED_MORE);
    const uint8_t sealed_over[4] = {17, 0, 0x40, 0};
    CHECK_EQ_INT(zbc_p2p_frame_check(sealed_over, 4, ZBC_P2P_MAX_FRAME, &n,
                                     &err), ZBC_P2P_FRAME_BAD);
}

static void test_encode_bytes(void)
{
    /* Envelope{tx: Tx{raw: "abc"}}: field 2 length-delimited (0x12),
     * length 5, then Tx field 1 (0x0a) length 3 "abc". */
    static const uint8_t want[] = {7, 0, 0, 0, 0x12, 5, 0x0a, 3, 'a', 'b',
                                   'c'};
    Zbc__P2p__Tx tx = ZBC__P2P__TX__INIT;
    tx.raw.data = (uint8_t *)"abc";
    tx.raw.len = 3;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX;
    m.tx = &tx;
    uint8_t *out = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    CHECK(zbc_p2p_encode(&m, &out, &len, &err));
    CHECK_EQ_INT(len, sizeof want);
    CHECK_EQ_MEM(out, want, sizeof want);
    zbc_p2p_msg *d = NULL;
    CHECK(zbc_p2p_decode(&d, out + 4, len - 4, &err));
    CHECK(d != NULL && d->msg_case == ZBC__P2P__ENVELOPE__MSG_TX);
    if (d != NULL && d->msg_case == ZBC__P2P__ENVELOPE__MSG_TX) {
        CHECK_EQ_INT(d->tx->raw.len, 3);
        CHECK_EQ_MEM(d->tx->raw.data, "abc", 3);
        CHECK_EQ_STR(zbc_p2p_msg_name(d), "tx");
    }
    zbc_p2p_msg_free(d);
    /* every truncation of the envelope is refused */
    for (size_t k = 1; k < len - 4; k++) {
        d = NULL;
        CHECK(!zbc_p2p_decode(&d, out + 4, k, &err));
        CHECK(d == NULL);
    }
    free(out);
}

static void test_hello_round_trip(void)
{
    uint8_t g[32], key[32], tip[32];
    memset(g, 0x11, 32);
    memset(key, 0x22, 32);
    memset(tip, 0x33, 32);
    Zbc__P2p__Hello h = ZBC__P2P__HELLO__INIT;
    h.protocol_version = ZBC_P2P_PROTOCOL_VERSION;
    h.genesis_hash = (ProtobufCBinaryData){32, g};
    h.node_key = (ProtobufCBinaryData){32, key};
    h.tip_hash = (ProtobufCBinaryData){32, tip};
    h.height = 77;
    h.listen_port = 9000;
    uint8_t kx[32];
    memset(kx, 0x44, 32);
    h.kx_key = (ProtobufCBinaryData){32, kx};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_HELLO;
    m.hello = &h;
    uint8_t *out = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    CHECK(zbc_p2p_encode(&m, &out, &len, &err));
    /* the bytes docs/p2p.md §3 shows: prefix 146, Envelope field 1 (0x0a)
     * of 143 bytes (0x8f 0x01), then Hello fields 1..7 in order */
    uint8_t want[150], *w = want;
    const uint8_t head[] = {146, 0, 0, 0, 0x0a, 0x8f, 0x01, 0x08, 0x03,
                            0x12, 0x20};
    memcpy(w, head, sizeof head);
    w += sizeof head;
    memcpy(w, g, 32);
    w += 32;
    *w++ = 0x1a;
    *w++ = 0x20;
    memcpy(w, key, 32);
    w += 32;
    *w++ = 0x20;
    *w++ = 77;
    *w++ = 0x2a;
    *w++ = 0x20;
    memcpy(w, tip, 32);
    w += 32;
    *w++ = 0x30;
    *w++ = 0xa8;
    *w++ = 0x46;
    *w++ = 0x3a;
    *w++ = 0x20;
    memcpy(w, kx, 32);
    w += 32;
    CHECK_EQ_INT(w - want, 150);
    CHECK_EQ_INT(len, 150);
    if (len == 150)
        CHECK_EQ_MEM(out, want, 150);
    zbc_p2p_msg *d = NULL;
    CHECK(zbc_p2p_decode(&d, out + 4, len - 4, &err));
    if (d != NULL) {
        CHECK_EQ_INT(d->hello->height, 77);
        CHECK_EQ_INT(d->hello->listen_port, 9000);
        CHECK_EQ_MEM(d->hello->tip_hash.data, tip, 32);
    }
    zbc_p2p_msg_free(d);
    free(out);
    /* a 31-byte genesis hash is refused */
    h.genesis_hash.len = 31;
    CHECK(zbc_p2p_encode(&m, &out, &len, &err));
    d = NULL;
    CHECK(!zbc_p2p_decode(&d, out + 4, len - 4, &err));
    CHECK(strstr(err.msg, "hello genesis hash is 31 bytes") != NULL);
    free(out);
    h.genesis_hash.len = 32;
    /* a Hello without its kx key is refused */
    h.kx_key.len = 0;
    CHECK(zbc_p2p_encode(&m, &out, &len, &err));
    CHECK(!zbc_p2p_decode(&d, out + 4, len - 4, &err));
    CHECK(strstr(err.msg, "hello kx key is 0 bytes") != NULL);
    free(out);
    h.kx_key.len = 32;
    h.listen_port = 70000;
    CHECK(zbc_p2p_encode(&m, &out, &len, &err));
    CHECK(!zbc_p2p_decode(&d, out + 4, len - 4, &err));
    CHECK(strstr(err.msg, "not a port") != NULL);
    free(out);
}

static int decode_fails(const zbc_p2p_msg *m, const char *want)
{
    uint8_t *out = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_p2p_encode(m, &out, &len, &err))
        return 0;
    zbc_p2p_msg *d = NULL;
    int refused = !zbc_p2p_decode(&d, out + 4, len - 4, &err);
    zbc_p2p_msg_free(d);
    free(out);
    if (refused && strstr(err.msg, want) == NULL) {
        fprintf(stderr, "error '%s' lacks '%s'\n", err.msg, want);
        return 0;
    }
    return refused;
}

static void test_field_rules(void)
{
    uint8_t hashes[65][32];
    memset(hashes, 0x44, sizeof hashes);
    ProtobufCBinaryData loc[65];
    for (int i = 0; i < 65; i++)
        loc[i] = (ProtobufCBinaryData){32, hashes[i]};
    Zbc__P2p__GetBlocks gb = ZBC__P2P__GET_BLOCKS__INIT;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS;
    m.get_blocks = &gb;
    gb.locator = loc;
    gb.n_locator = 0;
    gb.count = 10;
    CHECK(decode_fails(&m, "0 locator hashes"));
    gb.n_locator = 65;
    CHECK(decode_fails(&m, "65 locator hashes"));
    gb.n_locator = 64;
    gb.count = 0;
    CHECK(decode_fails(&m, "count 0"));
    gb.count = 129;
    CHECK(decode_fails(&m, "count 129"));
    gb.count = 128;
    CHECK(!decode_fails(&m, ""));
    loc[3].len = 33;
    CHECK(decode_fails(&m, "locator hash is 33 bytes"));

    Zbc__P2p__Block blk = ZBC__P2P__BLOCK__INIT;
    uint8_t raw[400] = {0};
    blk.raw = (ProtobufCBinaryData){327, raw};
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCK;
    m.block = &blk;
    CHECK(decode_fails(&m, "shorter than a header"));

    Zbc__P2p__Tx tx = ZBC__P2P__TX__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX;
    m.tx = &tx;
    CHECK(decode_fails(&m, "tx message is empty"));

    Zbc__P2p__Ping ping = ZBC__P2P__PING__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
    m.ping = &ping;
    CHECK(decode_fails(&m, "ping tip hash is 0 bytes"));
}

/* Finality votes (docs/protocol-chain.md §8.7): counts and sizes. */
static void test_vote_fields(void)
{
    static uint8_t bytes[ZBC_VOTE_SET_MAX_LEN + 1];
    static ProtobufCBinaryData votes[ZBC_P2P_MAX_VOTES + 1];
    for (size_t i = 0; i <= ZBC_P2P_MAX_VOTES; i++)
        votes[i] = (ProtobufCBinaryData){ZBC_VOTE_LEN, bytes};
    Zbc__P2p__Votes vs = ZBC__P2P__VOTES__INIT;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_VOTES;
    m.votes = &vs;
    vs.vote = votes;
    vs.n_vote = 0;
    CHECK(decode_fails(&m, "votes message has 0 votes, not 1..256"));
    vs.n_vote = ZBC_P2P_MAX_VOTES + 1;
    CHECK(decode_fails(&m, "votes message has 257 votes, not 1..256"));
    vs.n_vote = ZBC_P2P_MAX_VOTES;
    CHECK(!decode_fails(&m, ""));
    votes[7].len = ZBC_VOTE_LEN - 1;
    CHECK(decode_fails(&m, "vote 7 is 168 bytes, not 169"));
    votes[7].len = ZBC_VOTE_LEN;

    /* vote sets in a sync answer: at most one per block, bounded size */
    uint8_t raw[400] = {0};
    ProtobufCBinaryData blocks[2] = {{.len = 400, .data = raw},
                                     {.len = 400, .data = raw}};
    ProtobufCBinaryData sets[3] = {{.len = 0, .data = NULL},
                                   {.len = 10, .data = bytes},
                                   {.len = 10, .data = bytes}};
    Zbc__P2p__Blocks bl = ZBC__P2P__BLOCKS__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCKS;
    m.blocks = &bl;
    bl.raw = blocks;
    bl.n_raw = 2;
    bl.vote_set = sets;
    bl.n_vote_set = 2;
    CHECK(!decode_fails(&m, ""));
    bl.n_vote_set = 3;
    CHECK(decode_fails(&m, "blocks message has 3 vote sets for 2 blocks"));
    bl.n_vote_set = 2;
    sets[1].len = ZBC_VOTE_SET_MAX_LEN + 1;
    CHECK(decode_fails(&m, "vote set 1 is 8487 bytes, more than 8486"));
}

/* Transaction gossip (docs/p2p.md §4): TxInv and GetTxs hold 1..4096
 * hashes of 32 bytes, Txs 0..4096 non-empty transactions. */
static void test_tx_gossip_fields(void)
{
    static uint8_t hashes[ZBC_P2P_MAX_TX_HASHES + 1][32];
    static ProtobufCBinaryData hv[ZBC_P2P_MAX_TX_HASHES + 1];
    for (size_t i = 0; i <= ZBC_P2P_MAX_TX_HASHES; i++)
        hv[i] = (ProtobufCBinaryData){32, hashes[i]};
    Zbc__P2p__TxInv ti = ZBC__P2P__TX_INV__INIT;
    Zbc__P2p__GetTxs gt = ZBC__P2P__GET_TXS__INIT;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX_INV;
    m.tx_inv = &ti;
    ti.hash = hv;
    CHECK(decode_fails(&m, "tx_inv has 0 hashes, not 1..4096"));
    ti.n_hash = ZBC_P2P_MAX_TX_HASHES + 1;
    CHECK(decode_fails(&m, "tx_inv has 4097 hashes, not 1..4096"));
    ti.n_hash = ZBC_P2P_MAX_TX_HASHES;
    CHECK(!decode_fails(&m, ""));
    hv[9].len = 31;
    CHECK(decode_fails(&m, "tx_inv hash 9 is 31 bytes, not 32"));
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_TXS;
    m.get_txs = &gt;
    gt.hash = hv;
    gt.n_hash = 10;
    CHECK(decode_fails(&m, "get_txs hash 9 is 31 bytes, not 32"));
    hv[9].len = 32;
    CHECK(!decode_fails(&m, ""));
    gt.n_hash = 0;
    CHECK(decode_fails(&m, "get_txs has 0 hashes, not 1..4096"));
    gt.n_hash = ZBC_P2P_MAX_TX_HASHES + 1;
    CHECK(decode_fails(&m, "get_txs has 4097 hashes, not 1..4096"));

    Zbc__P2p__Txs txs = ZBC__P2P__TXS__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TXS;
    m.txs = &txs;
    txs.raw = hv;
    CHECK(!decode_fails(&m, "")); /* an empty answer: none held */
    txs.n_raw = ZBC_P2P_MAX_TXS;
    CHECK(!decode_fails(&m, ""));
    txs.n_raw = ZBC_P2P_MAX_TXS + 1;
    CHECK(decode_fails(&m, "txs message has 4097 transactions, more than "
                           "4096"));
    txs.n_raw = 5;
    hv[3].len = 0;
    CHECK(decode_fails(&m, "txs message: transaction 3 is empty"));
    hv[3].len = 32;
    CHECK_EQ_STR(zbc_p2p_msg_name(&m), "txs");
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX_INV;
    CHECK_EQ_STR(zbc_p2p_msg_name(&m), "tx_inv");
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_TXS;
    CHECK_EQ_STR(zbc_p2p_msg_name(&m), "get_txs");
}

static void test_garbage(void)
{
    struct zbc_err err = {{0}};
    zbc_p2p_msg *d = NULL;
    /* an empty envelope has no kind */
    CHECK(!zbc_p2p_decode(&d, (const uint8_t *)"", 0, &err));
    CHECK(strstr(err.msg, "no known kind") != NULL);
    /* only an unknown field (15, varint) */
    const uint8_t unknown[] = {0x78, 0x01};
    CHECK(!zbc_p2p_decode(&d, unknown, sizeof unknown, &err));
    /* a length running past the end */
    const uint8_t overrun[] = {0x12, 0x7f, 0x0a};
    CHECK(!zbc_p2p_decode(&d, overrun, sizeof overrun, &err));
    CHECK(strstr(err.msg, "not a valid protobuf") != NULL);
    /* random bytes, deterministic */
    uint32_t x = 12345;
    uint8_t buf[64];
    int refused = 0;
    for (int round = 0; round < 2000; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (uint8_t)(x >> 16);
        }
        size_t len = 1 + (x >> 8) % sizeof buf;
        d = NULL;
        if (!zbc_p2p_decode(&d, buf, len, &err)) {
            CHECK(d == NULL);
            refused++;
        }
        zbc_p2p_msg_free(d);
    }
    CHECK(refused > 1900);
}

/* The Auth digest is H(tag || six 32-byte fields), computed here from the
 * concatenated bytes, and differs when any field (the fresh kx keys, the
 * genesis) changes: a replayed signature over an old challenge fails. */
static void test_auth_digest(void)
{
    uint8_t f[5][32], buf[12 + 5 * 32], want[32], got[32];
    for (int i = 0; i < 5; i++)
        memset(f[i], 0x10 + i, 32);
    memcpy(buf, "ZBC-P2P-AUTH", 12);
    for (int i = 0; i < 5; i++)
        memcpy(buf + 12 + 32 * i, f[i], 32);
    zbc_sha3_256(want, buf, sizeof buf);
    zbc_p2p_auth_digest(got, f[0], f[1], f[2], f[3], f[4]);
    CHECK_EQ_MEM(got, want, 32);
    /* the block signing tag would give another digest */
    memcpy(buf, "ZBC-BLOCK\0\0\0", 12);
    zbc_sha3_256(want, buf, sizeof buf);
    CHECK(memcmp(got, want, 32) != 0);
    for (int i = 0; i < 5; i++) {
        uint8_t g2[5][32], other[32];
        memcpy(g2, f, sizeof g2);
        g2[i][31] ^= 1;
        zbc_p2p_auth_digest(other, g2[0], g2[1], g2[2], g2[3], g2[4]);
        CHECK(memcmp(other, got, 32) != 0);
    }
}

/* Two ends agree on session keys; a sealed frame opens only with the
 * right key and nonce (a replay, a reordering or one flipped bit fails);
 * a low-order kx key is refused. */
static void test_seal(void)
{
    uint8_t apk[32], ask[32], bpk[32], bsk[32];
    crypto_kx_keypair(apk, ask);
    crypto_kx_keypair(bpk, bsk);
    uint8_t arx[32], atx[32], brx[32], btx[32];
    struct zbc_err err = {{0}};
    CHECK(zbc_p2p_session_keys(arx, atx, apk, ask, bpk, 1, &err));
    CHECK(zbc_p2p_session_keys(brx, btx, bpk, bsk, apk, 0, &err));
    CHECK_EQ_MEM(atx, brx, 32);
    CHECK_EQ_MEM(btx, arx, 32);
    CHECK(memcmp(atx, arx, 32) != 0);
    uint8_t zero[32] = {0};
    CHECK(!zbc_p2p_session_keys(arx, atx, apk, ask, zero, 1, &err));
    CHECK(strstr(err.msg, "not a usable X25519 key") != NULL);

    Zbc__P2p__Tx tx = ZBC__P2P__TX__INIT;
    tx.raw = (ProtobufCBinaryData){3, (uint8_t *)"abc"};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX;
    m.tx = &tx;
    uint8_t *out = NULL;
    size_t len = 0;
    CHECK(zbc_p2p_seal(&m, atx, 5, &out, &len, &err));
    CHECK_EQ_INT(len, 4 + 7 + 16);
    if (out == NULL)
        return;
    CHECK_EQ_INT(out[0], 23);
    /* the plaintext is not on the wire */
    bool plain = false;
    for (size_t i = 0; i + 3 <= len; i++)
        plain = plain || memcmp(out + i, "abc", 3) == 0;
    CHECK(!plain);
    zbc_p2p_msg *d = NULL;
    CHECK(zbc_p2p_open(&d, brx, 5, out, len, &err));
    CHECK(d != NULL && d->msg_case == ZBC__P2P__ENVELOPE__MSG_TX &&
          d->tx->raw.len == 3 && memcmp(d->tx->raw.data, "abc", 3) == 0);
    zbc_p2p_msg_free(d);
    d = NULL;
    CHECK(!zbc_p2p_open(&d, brx, 4, out, len, &err)); /* replayed/reordered */
    CHECK(strstr(err.msg, "does not open") != NULL);
    CHECK(d == NULL);
    CHECK(!zbc_p2p_open(&d, btx, 5, out, len, &err)); /* the other key */
    out[9] ^= 1;
    CHECK(!zbc_p2p_open(&d, brx, 5, out, len, &err)); /* one flipped bit */
    out[9] ^= 1;
    out[0] ^= 1;                                   /* the length is sealed too */
    CHECK(!zbc_p2p_open(&d, brx, 5, out, len, &err));
    CHECK(!zbc_p2p_open(&d, brx, 5, out, 4 + 16, &err));
    free(out);
    /* a sealed envelope that opens but does not decode is refused */
    uint8_t junk[4 + 2 + 16] = {18, 0, 0, 0, 0x12, 0x7f};
    uint8_t npub[12] = {0};
    unsigned long long cl = 0;
    crypto_aead_chacha20poly1305_ietf_encrypt(junk + 4, &cl, junk + 4, 2,
                                              junk, 4, NULL, npub, atx);
    CHECK(!zbc_p2p_open(&d, brx, 0, junk, sizeof junk, &err));
    CHECK(strstr(err.msg, "not a valid protobuf") != NULL);
    CHECK(d == NULL);
}

/* An Auth carries exactly 64 signature bytes. */
static void test_auth_rules(void)
{
    uint8_t sig[65];
    memset(sig, 7, sizeof sig);
    Zbc__P2p__Auth a = ZBC__P2P__AUTH__INIT;
    a.signature = (ProtobufCBinaryData){64, sig};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_AUTH;
    m.auth = &a;
    CHECK(!decode_fails(&m, ""));
    CHECK_EQ_STR(zbc_p2p_msg_name(&m), "auth");
    a.signature.len = 63;
    CHECK(decode_fails(&m, "auth signature is 63 bytes"));
    a.signature.len = 65;
    CHECK(decode_fails(&m, "auth signature is 65 bytes"));
}

/* A decoded message re-encodes to one that decodes again to the same
 * kind (found by fuzz_p2p: an envelope carrying fields of number 0,
 * which protobuf-c keeps as unknown fields).  Unknown fields are refused. */
static void test_unknown_fields(void)
{
    static const uint8_t in[] = {0x2a, 0x00, 0x2a, 0x00, 0x80, 0x00, 0x00};
    zbc_p2p_msg *m = NULL;
    struct zbc_err err = {{0}};
    if (zbc_p2p_decode(&m, in, sizeof in, &err)) {
        uint8_t *enc = NULL;
        size_t len = 0;
        CHECK(zbc_p2p_encode(m, &enc, &len, &err));
        zbc_p2p_msg *m2 = NULL;
        CHECK(zbc_p2p_decode(&m2, enc + 4, len - 4, &err));
        CHECK(m2 != NULL && m2->msg_case == m->msg_case);
        zbc_p2p_msg_free(m2);
        free(enc);
        zbc_p2p_msg_free(m);
    } else {
        CHECK(m == NULL);
    }
    /* a known message with an unknown field (number 15) is refused */
    static const uint8_t extra[] = {0x2a, 0x00, 0x78, 0x01};
    m = NULL;
    CHECK(!zbc_p2p_decode(&m, extra, sizeof extra, &err));
    CHECK(m == NULL);
    CHECK(strstr(err.msg, "unknown field") != NULL);
}

int main(void)
{
    TEST_RUN(test_auth_digest);
    TEST_RUN(test_seal);
    TEST_RUN(test_auth_rules);
    TEST_RUN(test_frame_check);
    TEST_RUN(test_encode_bytes);
    TEST_RUN(test_hello_round_trip);
    TEST_RUN(test_field_rules);
    TEST_RUN(test_vote_fields);
    TEST_RUN(test_tx_gossip_fields);
    TEST_RUN(test_garbage);
    TEST_RUN(test_unknown_fields);
    return test_summary("node_p2p_wire");
}
