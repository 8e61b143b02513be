/* zbcd: the node daemon (docs/node.md).
 *
 *   zbcd init --datadir D [--genesis G]
 *   zbcd run --datadir D [--genesis G] [--api HOST:PORT]
 *            [--log-level debug|info|warn|error] [--log-file F]
 *            [--api-max-connections N] [--web DIR | --no-web]
 *            [--no-produce | --automine] [--verify-state]
 *            [--p2p HOST:PORT] [--peer HOST:PORT]...
 *   zbcd show-key --datadir D
 *   zbcd --help | --version
 *
 * Exit codes: 0 done / clean shutdown, 1 runtime failure (the message
 * says what), 2 usage error. */
#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdarg.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "consensus/genesis.h"
#include "node/client/genesis_file.h"
#include "crypto/address.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/zbcd/api.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/finality.h"
#include "node/zbcd/log.h"
#include "node/zbcd/p2p.h"
#include "node/zbcd/producer_loop.h"
#include "node/zbcd/web.h"

#define ZBCD_VERSION "0.1.0"
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define DEFAULT_API "127.0.0.1:8080"
#define MAX_PEER_FLAGS 64

static const char usage_text[] =
    "usage:\n"
    "  zbcd init --datadir DIR [--genesis FILE]\n"
    "      create DIR (mode 0700) with a new Ed25519 node key (node.key, 0600),\n"
    "      an admin API token (api.token, 0600) and, with --genesis, a copy of\n"
    "      the genesis file; prints the node key as JSON\n"
    "  zbcd run --datadir DIR [--genesis FILE] [--api HOST:PORT]\n"
    "           [--log-level debug|info|warn|error] [--log-file FILE]\n"
    "           [--no-produce | --automine] [--verify-state]\n"
    "           [--p2p HOST:PORT] [--peer HOST:PORT]...\n"
    "           [--api-max-connections N] [--web DIR | --no-web]\n"
    "           [--block-budget-ms MS] [--index-flush-blocks N]\n"
    "      run the node: ledger in DIR/ledger, HTTP API on --api (default\n"
    "      " DEFAULT_API "), blocks produced when this node is a validator;\n"
    "      --p2p listens for peers, --peer (repeatable) dials one and redials\n"
    "      it whenever the connection drops; --api-max-connections caps the\n"
    "      open API connections (default 256, at most half of RLIMIT_NOFILE);\n"
    "      --genesis defaults to DIR/genesis.json; SIGTERM/SIGINT stop it cleanly;\n"
    "      --automine (dev mode; the node's key must be the genesis' only\n"
    "      validator) produces a block only when a transaction or app work\n"
    "      waits, and POST /api/v1/admin/mine {\"blocks\": N} produces N now;\n"
    "      the browser client is served at / on the API port from --web DIR\n"
    "      (default: the source tree's node/web for a program in its build\n"
    "      tree, else the installed share/zbc/web); --no-web serves none;\n"
    "      --verify-state also checks at start-up that the stored state\n"
    "      accumulator equals a full rescan of the state (reads the whole\n"
    "      ledger state: minutes on a large one);\n"
    "      --block-budget-ms (1..60000) caps the time this node's blocks take\n"
    "      to build (default: min(block time, smith delay) / 4, or / 2 when\n"
    "      the genesis has this one validator only);\n"
    "      --index-flush-blocks (1..256, default 16) holds the account\n"
    "      history and app list index entries of the last N blocks\n"
    "      in memory and writes them a slice a block (the apps every N\n"
    "      blocks): answers come from memory meanwhile, and after a crash\n"
    "      the next start catches them up from the stored blocks\n"
    "  zbcd show-key --datadir DIR\n"
    "      print the node key of DIR as JSON\n"
    "  zbcd --help | --version\n"
    "exit codes: 0 ok, 1 runtime failure, 2 usage error\n";

struct options {
    const char *datadir;
    const char *genesis;
    const char *api;
    const char *log_level;
    const char *log_file;
    bool no_produce;
    bool automine;
    const char *p2p;
    const char *peers[MAX_PEER_FLAGS];
    size_t n_peers;
    const char *api_max_connections;
    const char *block_budget_ms;
    const char *index_flush_blocks;
    const char *web;
    bool no_web;
    bool verify_state;
};

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* How often the loop looks whether an index flush is due (ms). */
#define ZBCD_INDEX_TICK_MS 100

static void on_index_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    zbc_chain_index_maintain(arg);
}

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "zbcd: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(zbcd --help for usage)\n");
    va_end(ap);
    return EXIT_USAGE;
}

/* Parses options after the command; returns 0 or an exit code. */
static int parse_options(struct options *o, int argc, char **argv,
                         const char *command)
{
    bool is_run = strcmp(command, "run") == 0;
    bool is_init = strcmp(command, "init") == 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (strcmp(a, "--datadir") == 0)
            slot = &o->datadir;
        else if (strcmp(a, "--genesis") == 0 && (is_run || is_init))
            slot = &o->genesis;
        else if (strcmp(a, "--api") == 0 && is_run)
            slot = &o->api;
        else if (strcmp(a, "--log-level") == 0 && is_run)
            slot = &o->log_level;
        else if (strcmp(a, "--log-file") == 0 && is_run)
            slot = &o->log_file;
        else if (strcmp(a, "--api-max-connections") == 0 && is_run)
            slot = &o->api_max_connections;
        else if (strcmp(a, "--block-budget-ms") == 0 && is_run)
            slot = &o->block_budget_ms;
        else if (strcmp(a, "--index-flush-blocks") == 0 && is_run)
            slot = &o->index_flush_blocks;
        else if (strcmp(a, "--web") == 0 && is_run)
            slot = &o->web;
        else if (strcmp(a, "--no-web") == 0 && is_run) {
            o->no_web = true;
            continue;
        } else if (strcmp(a, "--no-produce") == 0 && is_run) {
            o->no_produce = true;
            continue;
        } else if (strcmp(a, "--automine") == 0 && is_run) {
            o->automine = true;
            continue;
        } else if (strcmp(a, "--verify-state") == 0 && is_run) {
            o->verify_state = true;
            continue;
        } else if (strcmp(a, "--p2p") == 0 && is_run)
            slot = &o->p2p;
        else if (strcmp(a, "--peer") == 0 && is_run) {
            if (o->n_peers == MAX_PEER_FLAGS)
                return usage_error("at most %d --peer options",
                                   MAX_PEER_FLAGS);
            slot = &o->peers[o->n_peers++];
        } else
            return usage_error("unknown option '%s'", a);
        if (i + 1 >= argc)
            return usage_error("option %s needs a value", a);
        *slot = argv[++i];
    }
    if (o->datadir == NULL)
        return usage_error("%s needs --datadir DIR", command);
    if (o->automine && o->no_produce)
        return usage_error("--automine and --no-produce contradict each "
                           "other: automine produces blocks");
    if (o->web != NULL && o->no_web)
        return usage_error("--web DIR and --no-web contradict each other");
    return 0;
}

static int print_key_json(const char *datadir, const struct zbc_node_key *k)
{
    char hex[65], znk[ZBC_ADDR_TEXT_MAX], zbc[ZBC_ADDR_TEXT_MAX];
    zbc_hex_encode(hex, k->pk, 32);
    zbc_addr_zbc_text(znk, k->pk, "ZNK");
    zbc_addr_zbc_text(zbc, k->pk, "ZBC");
    printf("{\"success\":true,\"datadir\":\"");
    for (const char *p = datadir; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            putchar('\\');
        if ((unsigned char)*p < 0x20)
            printf("\\u%04x", (unsigned char)*p);
        else
            putchar(*p);
    }
    printf("\",\"node_public_key\":\"%s\",\"node_address\":\"%s\","
           "\"producer_account\":\"%s\"}\n", hex, znk, zbc);
    return fflush(stdout) == 0 ? 0 : EXIT_RUNTIME;
}

static int cmd_init(const struct options *o)
{
    struct zbc_node_key key;
    struct zbc_err err = {{0}};
    if (!zbc_datadir_init(o->datadir, o->genesis, &key, &err)) {
        fprintf(stderr, "zbcd init: %s\n", err.msg);
        return EXIT_RUNTIME;
    }
    if (o->genesis != NULL) {
        /* Check the copy parses now rather than at the first run. */
        struct zbc_genesis g;
        if (!zbc_genesis_load_file(&g, o->genesis, &err))
            fprintf(stderr, "zbcd init: warning: %s does not parse: %s\n",
                    o->genesis, err.msg);
        else
            zbc_genesis_free(&g);
    }
    int rc = print_key_json(o->datadir, &key);
    sodium_memzero(&key, sizeof key);
    return rc;
}

static int cmd_show_key(const struct options *o)
{
    struct zbc_node_key key;
    struct zbc_err err = {{0}};
    if (!zbc_datadir_load_key(o->datadir, &key, &err)) {
        fprintf(stderr, "zbcd show-key: %s\n", err.msg);
        return EXIT_RUNTIME;
    }
    int rc = print_key_json(o->datadir, &key);
    sodium_memzero(&key, sizeof key);
    return rc;
}

/* ---- run ---- */

/* The test-only clock offset (docs/node.md §5, "Test clock offset"):
 * ZBCD_CLOCK_OFFSET_MS, a signed decimal number of milliseconds of at most
 * ZBCD_CLOCK_OFFSET_MAX_MS either way, read once at start, is added to the
 * wall clock everywhere the node reads it (API admission, P2P, finality,
 * block production) so tests can run a node whose clock is wrong. */
#define ZBCD_CLOCK_OFFSET_ENV "ZBCD_CLOCK_OFFSET_MS"
#define ZBCD_CLOCK_OFFSET_MAX_MS 600000u
static int64_t clock_offset_ms;

static uint64_t offset_clock_ms(void)
{
    uint64_t now = zbc_wall_clock_ms();
    if (clock_offset_ms < 0)
        return now - (uint64_t)-clock_offset_ms;
    return now + (uint64_t)clock_offset_ms;
}

/* Reads the variable; 1 ok (*clock NULL when unset or 0), 0 bad value. */
static int read_clock_offset(uint64_t (**clock)(void), struct zbc_err *err)
{
    *clock = NULL;
    const char *v = getenv(ZBCD_CLOCK_OFFSET_ENV);
    if (v == NULL || v[0] == '\0')
        return 1;
    bool neg = v[0] == '-';
    uint64_t mag;
    if (!zbc_parse_u64(v + (neg ? 1 : 0), 0, UINT64_MAX, &mag,
                       ZBCD_CLOCK_OFFSET_ENV " (milliseconds, optionally "
                       "negative)", err))
        return 0;
    if (mag > ZBCD_CLOCK_OFFSET_MAX_MS)
        return zbc_fail(err, "%s must be from -%u to %u milliseconds, not %s",
                        ZBCD_CLOCK_OFFSET_ENV, ZBCD_CLOCK_OFFSET_MAX_MS,
                        ZBCD_CLOCK_OFFSET_MAX_MS, v);
    clock_offset_ms = neg ? -(int64_t)mag : (int64_t)mag;
    if (clock_offset_ms != 0)
        *clock = offset_clock_ms;
    return 1;
}

struct daemon {
    struct event_base *base;
    int signal_seen;
    struct zbc_producer_loop *producer; /* --automine: admin/mine */
};

/* The producer's intake (zbc_producer_loop_set_intake). */
static unsigned take_blocks(void *arg)
{
    return zbc_p2p_take_blocks(arg);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    struct daemon *d = arg;
    d->signal_seen = (int)sig;
    zbc_log_info("received %s: stopping after the current work",
                 sig == SIGTERM ? "SIGTERM" : "SIGINT");
    event_base_loopexit(d->base, NULL);
}

static void on_admin_stop(void *arg)
{
    struct daemon *d = arg;
    event_base_loopexit(d->base, NULL);
}

static int on_admin_mine(void *arg, uint32_t n, uint32_t *mined,
                         bool *refused, struct zbc_err *err)
{
    struct daemon *d = arg;
    *mined = 0;
    *refused = false;
    if (d->producer == NULL)
        return zbc_fail(err, "the producer is not running");
    return zbc_producer_loop_mine(d->producer, n, mined, refused, err);
}

/* --automine is a dev mode for a chain this node alone produces
 * (docs/node.md §5): anything else would fork from the other validators. */
static int check_automine(const struct zbc_genesis *g,
                          const struct zbc_node_key *key, struct zbc_err *err)
{
    if (g->n_validators == 1 && zbc_genesis_is_validator(g, key->pk))
        return 1;
    return zbc_fail(err, "--automine needs this node's key to be the "
                    "genesis' only validator (the genesis lists %u; this "
                    "node's key is %s them)", g->n_validators,
                    zbc_genesis_is_validator(g, key->pk) ? "one of"
                                                         : "not among");
}

static int run_fail(const char *what, const struct zbc_err *err)
{
    zbc_log_error("%s: %s", what, err->msg);
    return EXIT_RUNTIME;
}

/* DIR/ledger.created (the genesis hash, hex) is written once the chain has
 * opened; from then on the ledger must be there.  LMDB takes a missing or
 * empty data.mdb for a new ledger, so a deleted or zero-truncated ledger
 * would otherwise restart the chain from its genesis without a word. */
#define LEDGER_MARK "ledger.created"

static int check_ledger_present(const char *dir, struct zbc_err *err)
{
    char mark[ZBC_DATADIR_PATH_MAX], data[ZBC_DATADIR_PATH_MAX];
    if (!zbc_datadir_path(mark, sizeof mark, dir, LEDGER_MARK, err) ||
        !zbc_datadir_path(data, sizeof data, dir,
                          ZBC_DATADIR_LEDGER "/data.mdb", err))
        return 0;
    struct stat st;
    if (stat(mark, &st) != 0)
        return errno == ENOENT ? 1
                               : zbc_fail(err, "cannot stat %s: %s", mark,
                                          strerror(errno));
    if (stat(data, &st) == 0 && st.st_size > 0)
        return 1;
    return zbc_fail(err, "the ledger %s is missing or empty, but this data "
                    "directory held one (%s exists); restore the ledger, or "
                    "delete %s/%s and %s to start again from the genesis and "
                    "sync from peers", data, mark, dir, ZBC_DATADIR_LEDGER,
                    mark);
}

static int mark_ledger_created(const char *dir, const uint8_t genesis[32],
                               struct zbc_err *err)
{
    char mark[ZBC_DATADIR_PATH_MAX], line[66];
    if (!zbc_datadir_path(mark, sizeof mark, dir, LEDGER_MARK, err))
        return 0;
    if (access(mark, F_OK) == 0)
        return 1;
    zbc_hex_encode(line, genesis, 32);
    line[64] = '\n';
    line[65] = '\0';
    return zbc_write_file(mark, line, 65, 0600, err);
}

/* The API connection limit: --api-max-connections, else
 * ZBC_API_MAX_CONNECTIONS but at most half the descriptors RLIMIT_NOFILE
 * allows (the rest is for the ledger, peers and the log; docs/node.md
 * "Limits"). */
static unsigned api_max_connections(void)
{
    struct rlimit rl;
    unsigned max = ZBC_API_MAX_CONNECTIONS;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 2 < max)
        max = rl.rlim_cur / 2 > 8 ? (unsigned)(rl.rlim_cur / 2) : 8;
    return max;
}

/* The browser client's folder (docs/web.md §2): --web DIR must open;
 * the default may be absent (then the API alone is served, said once at
 * INFO).  *web stays NULL with --no-web. */
static int open_web(struct zbc_web **web, const struct options *o,
                    struct zbc_err *err)
{
    *web = NULL;
    if (o->no_web)
        return 1;
    if (o->web != NULL)
        return zbc_web_open(web, o->web, err);
    char exe[4096], dir[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    if (!zbc_web_default_dir(dir, sizeof dir, exe, ZBC_BUILD_ROOT,
                             ZBC_WEB_SOURCE_DIR, ZBC_WEB_INSTALL_DIR, err))
        return 0;
    struct zbc_err e2;
    if (!zbc_web_open(web, dir, &e2))
        zbc_log_info("web: no browser client (%s); serving the API only",
                     e2.msg);
    return 1;
}

static int cmd_run(const struct options *o)
{
    struct zbc_err err = {{0}};
    enum zbc_log_level level = ZBC_LOG_INFO;
    if (o->log_level != NULL && !zbc_log_level_parse(&level, o->log_level, &err))
        return usage_error("%s", err.msg);
    char host[256];
    uint16_t port;
    if (!zbc_api_parse_listen(host, sizeof host, &port,
                              o->api != NULL ? o->api : DEFAULT_API, &err))
        return usage_error("%s", err.msg);
    uint64_t (*clock)(void);
    if (!read_clock_offset(&clock, &err))
        return usage_error("%s", err.msg);
    uint64_t max_conns = api_max_connections();
    if (o->api_max_connections != NULL &&
        !zbc_parse_u64(o->api_max_connections, 1, 65535, &max_conns,
                       "--api-max-connections", &err))
        return usage_error("%s", err.msg);
    uint64_t budget_ms = 0; /* 0: the chain's default */
    if (o->block_budget_ms != NULL &&
        !zbc_parse_u64(o->block_budget_ms, 1, 60000, &budget_ms,
                       "--block-budget-ms", &err))
        return usage_error("%s", err.msg);
    uint64_t index_every = 0; /* 0: the chain's default */
    if (o->index_flush_blocks != NULL &&
        !zbc_parse_u64(o->index_flush_blocks, 1, ZBC_CHAIN_INDEX_FLUSH_MAX,
                       &index_every, "--index-flush-blocks", &err))
        return usage_error("%s", err.msg);
    zbc_log_set_level(level);
    if (o->log_file != NULL && !zbc_log_open_file(o->log_file, &err)) {
        fprintf(stderr, "zbcd: %s\n", err.msg);
        return EXIT_RUNTIME;
    }
    if (sodium_init() < 0) {
        zbc_fail(&err, "libsodium failed to initialise");
        return run_fail("startup", &err);
    }
    signal(SIGPIPE, SIG_IGN);

    struct stat st;
    if (stat(o->datadir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        zbc_log_error("startup: data directory %s does not exist (run `zbcd "
                      "init --datadir %s` first)", o->datadir, o->datadir);
        return EXIT_RUNTIME;
    }
    int lock_fd = -1;
    if (!zbc_datadir_lock(o->datadir, &lock_fd, &err))
        return run_fail("startup", &err);
    char mode_msg[ZBC_DATADIR_PATH_MAX + 128];
    if (zbc_datadir_mode_warning(o->datadir, mode_msg, sizeof mode_msg))
        zbc_log_warn("startup: %s", mode_msg);

    int rc = EXIT_RUNTIME;
    struct zbc_node_key key;
    struct zbc_genesis g;
    bool have_genesis = false;
    char token[ZBC_API_TOKEN_HEX + 1];
    char path[ZBC_DATADIR_PATH_MAX];
    struct zbc_chain *chain = NULL;
    struct zbc_api *api = NULL;
    struct zbc_web *web = NULL;
    struct zbc_producer_loop *producer = NULL;
    struct zbc_p2p *p2p = NULL;
    struct zbc_finality *fin = NULL;
    struct daemon d = {0};
    struct event *sigterm = NULL, *sigint = NULL, *index_timer = NULL;
    memset(&key, 0, sizeof key);

    if (!zbc_datadir_load_key(o->datadir, &key, &err) ||
        !zbc_datadir_load_token(o->datadir, token, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    const char *gpath = o->genesis;
    if (gpath == NULL) {
        if (!zbc_datadir_path(path, sizeof path, o->datadir,
                              ZBC_DATADIR_GENESIS, &err)) {
            run_fail("startup", &err);
            goto out;
        }
        if (access(path, R_OK) != 0) {
            zbc_log_error("startup: no --genesis given and %s does not exist",
                          path);
            goto out;
        }
        gpath = path;
    }
    if (!zbc_genesis_load_file(&g, gpath, &err)) {
        zbc_log_error("startup: genesis %s: %s", gpath, err.msg);
        goto out;
    }
    have_genesis = true;
    if (o->automine && !check_automine(&g, &key, &err)) {
        rc = usage_error("%s", err.msg);
        goto out;
    }

    char ledger[ZBC_DATADIR_PATH_MAX];
    if (!zbc_datadir_path(ledger, sizeof ledger, o->datadir,
                          ZBC_DATADIR_LEDGER, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    struct zbc_chain_config ccfg = {.ledger_dir = ledger, .genesis = &g,
                                    .key = &key,
                                    .verify_state = o->verify_state,
                                    .block_budget_ms = (uint32_t)budget_ms,
                                    .index_flush_blocks =
                                        (uint32_t)index_every,
                                    .index_app_early =
                                        randombytes_uniform(UINT32_MAX)};
    if (!check_ledger_present(o->datadir, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    if (!zbc_chain_open(&chain, &ccfg, &err)) {
        run_fail("cannot open the chain", &err);
        goto out;
    }
    if (!mark_ledger_created(o->datadir, g.hash, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    if (clock != NULL)
        zbc_log_warn("startup: test clock offset %s=%lld ms: this node's "
                     "clock is wrong on purpose", ZBCD_CLOCK_OFFSET_ENV,
                     (long long)clock_offset_ms);
    struct zbc_finality_config fcfg = {.chain = chain, .key = &key,
                                       .datadir = o->datadir,
                                       .now_ms = clock};
    if (!zbc_finality_open(&fin, &fcfg, &err)) {
        run_fail("startup", &err);
        goto out;
    }

    d.base = zbc_producer_base_new();
    if (d.base == NULL) {
        zbc_log_error("startup: cannot create the event loop");
        goto out;
    }
    if (!open_web(&web, o, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    struct zbc_api_config acfg = {
        .host = host,
        .port = port,
        .admin_token = token,
        .version = "zbcd/" ZBCD_VERSION,
        .on_stop = on_admin_stop,
        .on_stop_arg = &d,
        .mine = o->automine ? on_admin_mine : NULL,
        .mine_arg = &d,
        .max_connections = (unsigned)max_conns,
        .web = web,
        .now_ms = clock,
    };
    if (!zbc_api_start(&api, d.base, chain, &acfg, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    if (o->p2p != NULL || o->n_peers > 0) {
        struct zbc_p2p_config pcfg = {.listen = o->p2p, .peers = o->peers,
                                      .n_peers = o->n_peers, .key = &key,
                                      .now_ms = clock};
        if (!zbc_p2p_start(&p2p, d.base, chain, &pcfg, &err)) {
            run_fail("startup", &err);
            goto out;
        }
        zbc_p2p_set_finality(p2p, fin);
    }
    if (!o->no_produce &&
        !zbc_producer_loop_start(&producer, d.base, chain, clock, &err)) {
        run_fail("startup", &err);
        goto out;
    }
    if (producer != NULL && p2p != NULL)
        zbc_producer_loop_set_intake(producer, take_blocks, p2p);
    if (producer != NULL && o->automine) {
        zbc_producer_loop_set_automine(producer, true);
        d.producer = producer;
    }
    /* the index flush, when one is due, runs between the loop's other
     * work: after the block that made it due has gone out */
    index_timer = event_new(d.base, -1, EV_PERSIST, on_index_timer, chain);
    struct timeval index_tv = {0, ZBCD_INDEX_TICK_MS * 1000};
    if (index_timer == NULL || evtimer_add(index_timer, &index_tv) != 0) {
        zbc_log_error("startup: cannot start the index flush timer");
        goto out;
    }
    sigterm = evsignal_new(d.base, SIGTERM, on_signal, &d);
    sigint = evsignal_new(d.base, SIGINT, on_signal, &d);
    if (sigterm == NULL || sigint == NULL || evsignal_add(sigterm, NULL) != 0 ||
        evsignal_add(sigint, NULL) != 0) {
        zbc_log_error("startup: cannot install signal handlers");
        goto out;
    }

    char ghex[65], thex[65], znk[ZBC_ADDR_TEXT_MAX];
    const struct zbc_parent *tip = zbc_chain_tip(chain);
    zbc_hex_encode(ghex, g.hash, 32);
    zbc_hex_encode(thex, tip->hash, 32);
    zbc_addr_zbc_text(znk, key.pk, "ZNK");
    zbc_log_info("zbcd %s started: chain=%s genesis=%s height=%u tip=%s "
                 "node=%s validator=%s producing=%s",
                 ZBCD_VERSION, g.chain_name, ghex, tip->height, thex, znk,
                 zbc_genesis_is_validator(&g, key.pk) ? "yes" : "no",
                 producer == NULL ? "no" : o->automine ? "automine" : "yes");

    if (event_base_dispatch(d.base) < 0) {
        zbc_log_error("event loop failed");
        goto out;
    }
    zbc_log_info("zbcd stopped at height %u", zbc_chain_tip(chain)->height);
    rc = 0;
out:
    if (index_timer != NULL)
        event_free(index_timer);
    if (sigterm != NULL)
        event_free(sigterm);
    if (sigint != NULL)
        event_free(sigint);
    zbc_producer_loop_stop(producer);
    zbc_p2p_stop(p2p);
    zbc_api_stop(api);
    zbc_web_free(web);
    zbc_finality_close(fin);
    zbc_chain_close(chain); /* syncs and closes LMDB */
    if (d.base != NULL)
        event_base_free(d.base);
    if (have_genesis)
        zbc_genesis_free(&g);
    sodium_memzero(&key, sizeof key);
    sodium_memzero(token, sizeof token);
    if (lock_fd >= 0)
        close(lock_fd);
    zbc_log_close_file();
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("missing command");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("zbcd %s\n", ZBCD_VERSION);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
    }
    struct options o = {0};
    if (strcmp(cmd, "init") != 0 && strcmp(cmd, "run") != 0 &&
        strcmp(cmd, "show-key") != 0)
        return usage_error("unknown command '%s'", cmd);
    int rc = parse_options(&o, argc - 2, argv + 2, cmd);
    if (rc != 0)
        return rc;
    if (strcmp(cmd, "init") == 0)
        return cmd_init(&o);
    if (strcmp(cmd, "show-key") == 0)
        return cmd_show_key(&o);
    return cmd_run(&o);
}
