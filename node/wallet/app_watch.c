/* zbc app watch ID [--auto-reveal]: follows an app live through the node's
 * event stream (GET /api/v1/apps/<id>/events, server-sent events), redraws
 * the app after every event and, with --auto-reveal (battleship), sends the
 * reveals and the final open from the wallet's secret file, a reveal alone
 * only when no shot of the player can go with it in time (docs/wallet.md
 * "Battleship").  Ends when the app is finished or abandoned.  Between
 * events it refreshes the clock's countdown once a block and prints "your
 * move" (with a terminal bell on a terminal) once when the caller's turn
 * begins (docs/wallet.md "Playing").  With --json nothing is printed until
 * the end (one JSON object: the final app view). */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "apps/games/battleship.h"
#include "node/wallet/app_client.h"
#include "node/wallet/app_move.h"
#include "node/wallet/app_view.h"
#include "node/wallet/battleship_flow.h"
#include "node/wallet/cmds.h"
#include "node/wallet/names.h"
#include "node/wallet/result_text.h"

struct stream {
    int fd;
    char buf[8192];
    size_t len;
    char data[8192]; /* the data line of the last event ("" when none) */
};

/* Opens GET <api>/api/v1/apps/<id>/events (HTTP/1.0: the node streams
 * without chunked encoding and closes at the end). */
static int stream_open(struct stream *s, const char *api, const char *id, struct zbc_wfail *f)
{
    char host[256], port[8] = "80", prefix[256] = "";
    const char *p = api;
    if (strncmp(p, "http://", 7) != 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--api must be an http:// URL for app watch");
    p += 7;
    size_t hl = strcspn(p, ":/");
    if (hl == 0 || hl >= sizeof host)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--api URL has no host");
    memcpy(host, p, hl);
    host[hl] = '\0';
    p += hl;
    if (*p == ':') {
        size_t pl = strcspn(p + 1, "/");
        if (pl == 0 || pl >= sizeof port)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--api URL has a bad port");
        memcpy(port, p + 1, pl);
        port[pl] = '\0';
        p += 1 + pl;
    }
    snprintf(prefix, sizeof prefix, "%s", p);
    size_t pre = strlen(prefix);
    while (pre > 0 && prefix[pre - 1] == '/')
        prefix[--pre] = '\0';
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        return zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot resolve %s", host);
    s->fd = -1;
    for (struct addrinfo *a = res; a != NULL && s->fd < 0; a = a->ai_next) {
        s->fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (s->fd >= 0 && connect(s->fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(s->fd);
            s->fd = -1;
        }
    }
    freeaddrinfo(res);
    if (s->fd < 0)
        return zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot connect to %s:%s", host, port);
    char req[768];
    int n = snprintf(req, sizeof req,
                     "GET %s/api/v1/apps/%s/events HTTP/1.0\r\nHost: %s\r\n"
                     "Accept: text/event-stream\r\n\r\n", prefix, id, host);
    if (write(s->fd, req, (size_t)n) != n) {
        close(s->fd);
        return zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot send the stream request");
    }
    s->len = 0;
    return 1;
}

/* Waits up to wait_ms (-1: for ever) for the next complete SSE message
 * ("\n\n") that carries an event (comments and the header are skipped).
 * 1 = an event, 0 = end of stream or error, -1 = nothing within wait_ms. */
static int stream_next(struct stream *s, int wait_ms)
{
    for (;;) {
        s->buf[s->len] = '\0';
        char *end = strstr(s->buf, "\n\n");
        if (end != NULL) {
            *end = '\0'; /* the message alone */
            bool event = strstr(s->buf, "\ndata:") != NULL || strncmp(s->buf, "data:", 5) == 0;
            bool header = strncmp(s->buf, "HTTP/", 5) == 0;
            const char *d = strncmp(s->buf, "data:", 5) == 0 ? s->buf : strstr(s->buf, "\ndata:");
            s->data[0] = '\0';
            if (event && !header && d != NULL) {
                d += *d == '\n' ? 6 : 5;
                d += *d == ' '; /* "data: x": one space after the colon is not data */
                size_t dl = strcspn(d, "\n");
                if (dl < sizeof s->data) {
                    memcpy(s->data, d, dl);
                    s->data[dl] = '\0';
                }
            }
            size_t used = (size_t)(end - s->buf) + 2;
            memmove(s->buf, s->buf + used, s->len - used);
            s->len -= used;
            if (event && !header)
                return 1;
            continue;
        }
        if (s->len + 1 >= sizeof s->buf)
            s->len = 0; /* an oversized message: drop it */
        struct pollfd pf = {.fd = s->fd, .events = POLLIN};
        int pr = poll(&pf, 1, wait_ms);
        if (pr < 0 && errno != EINTR)
            return 0;
        if (pr == 0 && wait_ms >= 0)
            return -1;
        if (!(pf.revents & (POLLIN | POLLHUP)))
            continue;
        ssize_t r = read(s->fd, s->buf + s->len, sizeof s->buf - 1 - s->len);
        if (r <= 0)
            return 0;
        /* normalise CRLF (the HTTP header) to LF */
        size_t from = s->len;
        for (ssize_t i = 0; i < r; i++) {
            char c = s->buf[from + (size_t)i];
            if (c != '\r')
                s->buf[s->len++] = c;
        }
    }
}

/* --auto-reveal state: what was sent at which move count. */
struct auto_state {
    long long acted_at; /* app "moves" when we last sent a reveal or the open */
    long long told_at;  /* ... when we last said a reveal waits for a shot */
    bool no_board;      /* said once: this wallet has no board of the app */
    int reveals, opens;
};

/* --auto-reveal for a battleship seat (docs/wallet.md "Battleship"): the
 * open and a reveal that is the whole turn go at once; any other reveal
 * waits for the player's `app move ID fire CELL` (which carries it: one
 * transaction per turn) until ZBC_BS_REVEAL_MARGIN blocks are left, then
 * goes alone.  Returns how long to wait for the next event: -1 for ever,
 * else milliseconds (the clock is checked again). */
static int auto_reveal(const struct zbc_opts *o, const char *id, const json_t *app,
                       const char *me_text, int seat, struct auto_state *a)
{
    long long moves = json_integer_value(json_object_get(app, "moves"));
    const json_t *left = json_object_get(app, "blocks_left");
    long long blocks_left = json_is_integer(left) ? json_integer_value(left) : -1;
    uint64_t app_id;
    if (moves == a->acted_at || !zbc_app_parse_id(&app_id, id))
        return -1;
    struct zbc_game_state *st = malloc(sizeof *st);
    struct zbc_bs_secret *sec = malloc(sizeof *sec);
    struct zbc_wfail sf = {0};
    const struct zbc_engine *e;
    bool found = false;
    int wait = -1;
    if (st == NULL || sec == NULL || !zbc_app_state(&e, st, app, &sf) ||
        e != &zbc_engine_battleship)
        goto done;
    if (!zbc_bs_secret_load(sec, &found, o, app_id, me_text, &sf) || !found) {
        if (!a->no_board)
            fprintf(stderr, "zbc: auto-reveal: %s\n",
                    found ? sf.err.msg : "no battleship board of this app in this wallet");
        a->no_board = true;
        goto done;
    }
    enum zbc_bs_auto step = zbc_bs_auto_step(st, (uint8_t)seat, sec, blocks_left);
    if (step == ZBC_BS_AUTO_WAIT) {
        if (a->told_at != moves && !o->json) {
            char name[4] = "?";
            if (!zbc_battleship_format_cell(
                    (uint8_t)zbc_battleship_pending_cell(st, (uint8_t)seat), name))
                name[0] = '?';
            printf("auto-reveal: %s is revealed with your next shot (`zbc app move %s fire CELL`, "
                   "one transaction), or alone when %d blocks are left\n",
                   name, id, ZBC_BS_REVEAL_MARGIN);
            fflush(stdout);
        }
        a->told_at = moves;
        wait = 1000;
    } else if (step == ZBC_BS_AUTO_REVEAL || step == ZBC_BS_AUTO_OPEN) {
        const char *words[] = {step == ZBC_BS_AUTO_OPEN ? "open" : "reveal"};
        json_t *r = NULL;
        if (zbc_app_move(o, id, 1, words, &r, &sf)) {
            a->acted_at = moves;
            if (step == ZBC_BS_AUTO_OPEN)
                a->opens++;
            else
                a->reveals++;
            if (!o->json)
                printf("auto-%s sent: %s\n", words[0],
                       json_string_value(json_object_get(r, "transaction_hash")));
        } else {
            fprintf(stderr, "zbc: auto-%s failed: %s\n", words[0], sf.err.msg);
            wait = 1000; /* try again */
        }
        json_decref(r);
    }
done:
    zbc_wfail_clear(&sf);
    if (sec != NULL)
        sodium_memzero(sec, sizeof *sec);
    free(sec);
    free(st);
    return wait;
}

/* An app_end event (of the stream, or the history entry) in words: "block
 * 21: the app ended: resign: seat 1 resigned, seat 0 won"
 * (node/wallet/result_text.h); -1 (out "") for anything else. */
static int end_line(const json_t *ev, char *out, size_t cap)
{
    const char *kind = json_string_value(json_object_get(ev, "kind"));
    char words[256];
    out[0] = '\0';
    if (kind == NULL || strcmp(kind, "app_end") != 0 ||
        zbc_end_event_text(ev, words, sizeof words) < 0)
        return -1;
    int n = snprintf(out, cap, "block %lld: the app ended: %s",
                     (long long)json_integer_value(json_object_get(ev, "height")), words);
    if (n < 0 || (size_t)n >= cap) {
        out[0] = '\0';
        return -1;
    }
    return n;
}

/* The last history entry of a kind, or NULL. */
static const json_t *last_entry(const json_t *app, const char *kind)
{
    const json_t *h = json_object_get(app, "history"), *found = NULL, *e;
    size_t i;
    json_array_foreach(h, i, e) {
        const char *k = json_string_value(json_object_get(e, "kind"));
        if (k != NULL && strcmp(k, kind) == 0)
            found = e;
    }
    return found;
}

/* Whether the caller's turn began since the last call: the caller holds
 * the clock at a move count not rung yet (a keep-alive does not ring
 * again); nothing while a dice move waits for its block. */
static bool watch_your_turn(const json_t *app, const char *me, long long *rung_moves)
{
    const char *ca = json_string_value(json_object_get(app, "clock_address"));
    if (me[0] == '\0' || ca == NULL || strcmp(ca, me) != 0 ||
        json_is_true(json_object_get(app, "has_pending")))
        return false;
    long long moves = json_integer_value(json_object_get(app, "moves"));
    if (moves == *rung_moves)
        return false;
    *rung_moves = moves;
    return true;
}

int zbc_app_watch(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                  struct zbc_wfail *f)
{
    if (argc != 2)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app watch ID [--auto-reveal]");
    const char *id = argv[1];
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX] = "";
    struct zbc_wfail quiet = {0};
    if (!zbc_app_caller(&me, me_text, o, &quiet)) {
        if (o->auto_reveal) {
            *f = quiet;
            return 0;
        }
        me_text[0] = '\0';
    }
    zbc_wfail_clear(&quiet);
    struct stream s = {.fd = -1};
    if (!stream_open(&s, o->api, id, f))
        return 0;
    json_t *app = NULL;
    struct auto_state as = {.acted_at = -1, .told_at = -1};
    int updates = 0, ok = 1, turns = 0;
    uint64_t block_ms = zbc_app_block_time_ms(o);
    struct zbc_names nm;
    zbc_names_load(&nm, o);
    /* between events, wake once a block to refresh the countdown */
    int tick_ms = block_ms >= 200 && block_ms <= 600000 ? (int)block_ms : 1000;
    bool redraw = true, bell = !o->json && isatty(STDOUT_FILENO), end_said = false;
    long long shown_height = -1, rung_moves = -1;
    for (;;) {
        json_decref(app);
        if (!zbc_app_fetch(&app, o, id, f)) {
            app = NULL;
            ok = 0;
            break;
        }
        updates++;
        long long height = json_integer_value(json_object_get(app, "height"));
        const char *status = json_string_value(json_object_get(app, "status"));
        bool over = status == NULL || strcmp(status, "finished") == 0 ||
                    strcmp(status, "abandoned") == 0;
        if (!o->json && (redraw || over)) {
            char *text = zbc_app_view_text(app, me_text, block_ms, &nm);
            if (text != NULL)
                printf("%s\n", text);
            free(text);
        } else if (!o->json && height != shown_height) {
            char line[256];
            if (zbc_app_clock_line(app, me_text, block_ms, line, sizeof line) >= 0)
                printf("block %lld: %s\n", height, line);
        }
        shown_height = height;
        if (watch_your_turn(app, me_text, &rung_moves)) {
            turns++;
            if (!o->json)
                printf("your move%s\n", bell ? "\a" : "");
        }
        if (over && !o->json && !end_said) {
            /* the end came with a block the stream had not sent yet */
            char line[320];
            if (end_line(last_entry(app, "app_end"), line, sizeof line) >= 0)
                printf("%s\n", line);
        }
        fflush(stdout);
        if (over)
            break;
        int seat = zbc_app_seat_in(app, me_text);
        int wait = o->auto_reveal && seat >= 0 ? auto_reveal(o, id, app, me_text, seat, &as) : -1;
        int got = stream_next(&s, wait >= 0 && wait < tick_ms ? wait : tick_ms);
        redraw = got != -1;
        /* one redraw for the events of one block: drain what follows at once */
        while (got == 1) {
            char line[320];
            json_t *ev = json_loads(s.data, 0, NULL);
            if (!o->json && end_line(ev, line, sizeof line) >= 0) {
                printf("%s\n", line);
                end_said = true;
            }
            json_decref(ev);
            got = stream_next(&s, 150);
        }
        if (got == 0) {
            close(s.fd);
            if (!stream_open(&s, o->api, id, f)) {
                ok = 0;
                break;
            }
        }
    }
    if (s.fd >= 0)
        close(s.fd);
    zbc_names_free(&nm);
    if (!ok) {
        json_decref(app);
        return 0;
    }
    json_t *r = json_object();
    json_object_set_new(r, "app", app);
    json_object_set_new(r, "updates", json_integer(updates));
    json_object_set_new(r, "reveals_sent", json_integer(as.reveals));
    json_object_set_new(r, "opens_sent", json_integer(as.opens));
    json_object_set_new(r, "your_turns", json_integer(turns));
    json_object_set_new(r, "status", json_string(json_string_value(json_object_get(app, "status"))));
    char text[128];
    snprintf(text, sizeof text, "app %s is %s\n", id, json_string_value(json_object_get(app, "status")));
    json_object_set_new(r, "_text", json_string(text));
    *result = r;
    return 1;
}
