/* Test helper for tests/integration/test_audit.py (not installed): reads
 * or rewrites one entry of a COPY of a node's ledger, so the audit test
 * can check that zbc-audit names the divergence.
 *
 *   ledger_tamper LEDGER_DIR get DB KEYHEX         prints the value (hex)
 *   ledger_tamper LEDGER_DIR put DB KEYHEX VALHEX  writes the value
 *   ledger_tamper LEDGER_DIR del DB KEYHEX         deletes the entry
 *
 * Exit 0 on success, 1 on failure (message on stderr), 2 on usage. */
#include <lmdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"

static int hex_arg(uint8_t **out, size_t *len, const char *hex)
{
    size_t n = strlen(hex) / 2;
    *out = malloc(n > 0 ? n : 1);
    return *out != NULL && zbc_hex_decode(*out, n, len, hex, strlen(hex));
}

int main(int argc, char **argv)
{
    if (argc < 5 ||
        (strcmp(argv[2], "get") != 0 && strcmp(argv[2], "put") != 0 &&
         strcmp(argv[2], "del") != 0) ||
        (strcmp(argv[2], "put") == 0 && argc != 6) ||
        (strcmp(argv[2], "put") != 0 && argc != 5)) {
        fprintf(stderr, "usage: ledger_tamper LEDGER_DIR get DB KEYHEX | put "
                        "DB KEYHEX VALHEX | del DB KEYHEX\n");
        return 2;
    }
    bool del = strcmp(argv[2], "del") == 0;
    bool put = strcmp(argv[2], "put") == 0;
    uint8_t *key = NULL, *val = NULL;
    size_t klen = 0, vlen = 0;
    if (!hex_arg(&key, &klen, argv[4]) ||
        (put && !hex_arg(&val, &vlen, argv[5]))) {
        fprintf(stderr, "ledger_tamper: bad hex\n");
        return 2;
    }
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    int rc = mdb_env_create(&env);
    if (rc == 0)
        rc = mdb_env_set_maxdbs(env, 32);
    if (rc == 0)
        rc = mdb_env_open(env, argv[1], put || del ? 0 : MDB_RDONLY, 0600);
    if (rc == 0)
        rc = mdb_txn_begin(env, NULL, put || del ? 0 : MDB_RDONLY, &txn);
    if (rc == 0)
        rc = mdb_dbi_open(txn, argv[3], 0, &dbi);
    if (rc != 0) {
        fprintf(stderr, "ledger_tamper: %s\n", mdb_strerror(rc));
        return 1;
    }
    MDB_val k = {klen, key}, v = {vlen, val};
    if (put || del) {
        rc = put ? mdb_put(txn, dbi, &k, &v, 0) : mdb_del(txn, dbi, &k, NULL);
        if (rc == 0)
            rc = mdb_txn_commit(txn);
        else
            mdb_txn_abort(txn);
    } else {
        rc = mdb_get(txn, dbi, &k, &v);
        if (rc == 0) {
            char *hx = malloc(2 * v.mv_size + 1);
            if (hx == NULL)
                return 1;
            zbc_hex_encode(hx, v.mv_data, v.mv_size);
            printf("%s\n", hx);
            free(hx);
        }
        mdb_txn_abort(txn);
    }
    mdb_env_close(env);
    free(key);
    free(val);
    if (rc != 0) {
        fprintf(stderr, "ledger_tamper: %s\n", mdb_strerror(rc));
        return 1;
    }
    return 0;
}
