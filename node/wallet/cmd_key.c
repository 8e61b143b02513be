/* zbc key new|import|list|show|derive. */
#include <sodium.h>
#include <string.h>

#include "crypto/address.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/wallet/cmds.h"
#include "node/wallet/help.h"
#include "node/wallet/keystore.h"
#include "node/wallet/out.h"
#include "node/wallet/passphrase.h"

static json_t *forms_of_pk(const uint8_t pk[32])
{
    struct zbc_addr a;
    zbc_addr_from_ed25519(&a, pk);
    return zbc_addr_forms_json(&a);
}

static int key_store(const struct zbc_opts *o, const uint8_t seed[32], json_t **result,
                     struct zbc_wfail *f)
{
    const char *name = o->name != NULL ? o->name : "default";
    char pass[ZBC_PASSPHRASE_MAX];
    char path[ZBC_WALLET_PATH_MAX];
    if (!zbc_passphrase_get(pass, o, 1, f))
        return 0;
    int ok = zbc_keystore_save(o, name, seed, pass, path, f);
    sodium_memzero(pass, sizeof pass);
    if (!ok)
        return 0;
    uint8_t pk[32], sk[64];
    zbc_ed25519_keypair(pk, sk, seed);
    sodium_memzero(sk, sizeof sk);
    json_t *r = forms_of_pk(pk);
    json_object_set_new(r, "name", json_string(name));
    json_object_set_new(r, "file", json_string(path));
    *result = r;
    return 1;
}

static int parse_seed(uint8_t seed[32], const char *hex, struct zbc_wfail *f)
{
    if (strlen(hex) != 64 || !zbc_hex_decode_exact(seed, 32, hex))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "a seed is 32 bytes written as 64 hex characters");
    return 1;
}

int zbc_cmd_key(const struct zbc_opts *o, int argc, const char *const *argv,
                json_t **result, struct zbc_wfail *f)
{
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc key new|import|list|show|derive");
    const char *sub = argv[0];
    uint8_t seed[32];
    if (strcmp(sub, "new") == 0) {
        if (argc != 1)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc key new [--name N]");
        randombytes_buf(seed, sizeof seed);
        int ok = key_store(o, seed, result, f);
        sodium_memzero(seed, sizeof seed);
        return ok;
    }
    if (strcmp(sub, "import") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc key import <seed-hex> [--name N]");
        if (!parse_seed(seed, argv[1], f))
            return 0;
        int ok = key_store(o, seed, result, f);
        sodium_memzero(seed, sizeof seed);
        return ok;
    }
    if (strcmp(sub, "derive") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc key derive <seed-hex>");
        if (!parse_seed(seed, argv[1], f))
            return 0;
        uint8_t pk[32], sk[64];
        zbc_ed25519_keypair(pk, sk, seed);
        sodium_memzero(sk, sizeof sk);
        sodium_memzero(seed, sizeof seed);
        *result = forms_of_pk(pk);
        return 1;
    }
    if (strcmp(sub, "list") == 0) {
        if (argc != 1)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc key list");
        json_t *arr;
        if (!zbc_keystore_list(o, &arr, f))
            return 0;
        json_t *r = json_object();
        json_object_set_new(r, "keys", arr);
        *result = r;
        return 1;
    }
    if (strcmp(sub, "show") == 0) {
        if (argc > 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc key show [NAME]");
        uint8_t pk[32];
        char name[ZBC_KEY_NAME_MAX + 1];
        if (!zbc_keystore_pubkey(o, argc == 2 ? argv[1] : NULL, pk, name, f))
            return 0;
        json_t *r = forms_of_pk(pk);
        json_object_set_new(r, "name", json_string(name));
        *result = r;
        return 1;
    }
    static const char *const subs[] = {"new", "import", "list", "show", "derive"};
    return zbc_fail_unknown(f, "key command", sub, subs, 5);
}
