#include "node/client/genesis_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int zbc_genesis_load_file(struct zbc_genesis *g, const char *path,
                          struct zbc_err *err)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return zbc_fail(err, "cannot open genesis file %.120s: %s", path,
                        strerror(errno));
    char *buf = malloc(ZBC_GENESIS_FILE_MAX);
    if (buf == NULL) {
        fclose(f);
        return zbc_fail(err, "out of memory reading the genesis file");
    }
    size_t n = fread(buf, 1, ZBC_GENESIS_FILE_MAX, f);
    int rerr = ferror(f), more = n == ZBC_GENESIS_FILE_MAX && fgetc(f) != EOF;
    fclose(f);
    int ok;
    if (rerr)
        ok = zbc_fail(err, "cannot read genesis file %.120s", path);
    else if (more)
        ok = zbc_fail(err, "genesis file %.120s is larger than %u bytes", path,
                      ZBC_GENESIS_FILE_MAX);
    else
        ok = zbc_genesis_parse_json(g, buf, n, err);
    free(buf);
    return ok;
}
