/* The browser client's static files (node/zbcd/web.h, docs/web.md §2). */
#include "node/zbcd/web.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

#include "crypto/hex.h"
#include "node/zbcd/log.h"

struct zbc_web {
    int root;        /* O_DIRECTORY descriptor of the folder */
    char dir[4096];  /* the folder as given, for messages */
};

/* ---- request path → file name ---- */

static bool name_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
           c == '@' || c == '+';
}

static int refuse(int *status, int code, struct zbc_err *err)
{
    *status = code;
    return 0;
}

/* Checks one decoded segment [s, s+n). */
static int check_segment(const char *s, size_t n, int *status,
                         struct zbc_err *err)
{
    if (n == 0) {
        zbc_fail(err, "not found: a path ending in '/' or with an empty "
                 "segment names a directory, and directories are not listed");
        return refuse(status, 404, err);
    }
    if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) {
        zbc_fail(err, "path segment '%.*s' is not allowed", (int)n, s);
        return refuse(status, 400, err);
    }
    if (n > ZBC_WEB_MAX_SEGMENT) {
        zbc_fail(err, "a path segment is longer than %d bytes",
                 ZBC_WEB_MAX_SEGMENT);
        return refuse(status, 400, err);
    }
    if (s[0] == '.') {
        zbc_fail(err, "not found: hidden files are not served");
        return refuse(status, 404, err);
    }
    for (size_t i = 0; i < n; i++) {
        if (!name_char((unsigned char)s[i])) {
            zbc_fail(err, "not found: the web client's file names use only "
                     "letters, digits and . _ - @ +");
            return refuse(status, 404, err);
        }
    }
    return 1;
}

int zbc_web_map_path(char *rel, size_t cap, int *status, const char *raw,
                     struct zbc_err *err)
{
    size_t len = strnlen(raw, ZBC_WEB_MAX_PATH + 1);
    if (len > ZBC_WEB_MAX_PATH) {
        zbc_fail(err, "request path is longer than %d bytes",
                 ZBC_WEB_MAX_PATH);
        return refuse(status, 400, err);
    }
    if (raw[0] != '/') {
        zbc_fail(err, "request path must start with '/'");
        return refuse(status, 400, err);
    }
    if (strcmp(raw, "/") == 0) {
        if (cap < sizeof "index.html") {
            zbc_fail(err, "request path is too long");
            return refuse(status, 400, err);
        }
        memcpy(rel, "index.html", sizeof "index.html");
        return 1;
    }
    /* decode, segment by segment: a decoded '/' is a byte of a segment
     * and refused, never a separator */
    size_t o = 0, seg_start = 0, depth = 0;
    for (size_t i = 1; i <= len; i++) {
        if (i == len || raw[i] == '/') {
            if (!check_segment(rel + seg_start, o - seg_start, status, err))
                return 0;
            if (++depth > ZBC_WEB_MAX_DEPTH) {
                zbc_fail(err, "request path has more than %d segments",
                         ZBC_WEB_MAX_DEPTH);
                return refuse(status, 400, err);
            }
            if (i == len)
                break;
            if (o + 1 >= cap) {
                zbc_fail(err, "request path is too long");
                return refuse(status, 400, err);
            }
            rel[o++] = '/';
            seg_start = o;
            continue;
        }
        unsigned char c = (unsigned char)raw[i];
        if (c == '%') {
            uint8_t b = 0;
            size_t n = 0;
            if (i + 2 >= len || !zbc_hex_decode(&b, 1, &n, raw + i + 1, 2)) {
                zbc_fail(err, "malformed percent-escape in the request path");
                return refuse(status, 400, err);
            }
            c = b;
            i += 2;
            if (c == '/' || c == '\\') {
                zbc_fail(err, "an encoded '/' or '\\' in the request path is "
                         "not allowed");
                return refuse(status, 400, err);
            }
        }
        if (c == 0) {
            zbc_fail(err, "a NUL byte in the request path is not allowed");
            return refuse(status, 400, err);
        }
        if (c < 0x20 || c == 0x7f || c == '\\') {
            zbc_fail(err, "a control byte or '\\' in the request path is "
                     "not allowed");
            return refuse(status, 400, err);
        }
        if (o + 1 >= cap) {
            zbc_fail(err, "request path is too long");
            return refuse(status, 400, err);
        }
        rel[o++] = (char)c;
    }
    rel[o] = '\0';
    if (zbc_web_content_type(rel) == NULL) {
        zbc_fail(err, "not found: the web client serves no file of this kind");
        return refuse(status, 404, err);
    }
    return 1;
}

static const struct {
    const char *ext;
    const char *type;
} TYPES[] = {
    {".html", "text/html; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".json", "application/json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".ico", "image/x-icon"},
    {".woff2", "font/woff2"},
    {".txt", "text/plain; charset=utf-8"},
};

const char *zbc_web_content_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    const char *slash = strrchr(name, '/');
    if (dot == NULL || (slash != NULL && dot < slash) || dot == name ||
        (slash != NULL && dot == slash + 1))
        return NULL;
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
        if (strcmp(dot, TYPES[i].ext) == 0)
            return TYPES[i].type;
    return NULL;
}

/* ---- the folder ---- */

int zbc_web_open(struct zbc_web **out, const char *dir, struct zbc_err *err)
{
    struct zbc_web *w = calloc(1, sizeof *w);
    if (w == NULL)
        return zbc_fail(err, "out of memory opening the web folder");
    if (strlen(dir) >= sizeof w->dir) {
        free(w);
        return zbc_fail(err, "web folder path is too long");
    }
    w->root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (w->root < 0) {
        int e = errno;
        free(w);
        return zbc_fail(err, "cannot open the web folder %s: %s", dir,
                        strerror(e));
    }
    snprintf(w->dir, sizeof w->dir, "%s", dir);
    *out = w;
    return 1;
}

void zbc_web_free(struct zbc_web *w)
{
    if (w == NULL)
        return;
    close(w->root);
    free(w);
}

const char *zbc_web_dir(const struct zbc_web *w)
{
    return w->dir;
}

/* errno values meaning "no such servable file": absent, a link
 * (O_NOFOLLOW), not a directory on the way, a name too long. */
static bool not_there(int e)
{
    return e == ENOENT || e == ELOOP || e == ENOTDIR || e == ENAMETOOLONG ||
           e == EMLINK || e == ENXIO || e == EISDIR;
}

int zbc_web_open_file(const struct zbc_web *w, const char *rel, int *fd,
                      bool *found, struct zbc_err *err)
{
    *found = false;
    *fd = -1;
    char name[ZBC_WEB_MAX_PATH + 1];
    if (strlen(rel) >= sizeof name)
        return 1;
    memcpy(name, rel, strlen(rel) + 1);
    int dir = w->root;
    char *p = name;
    for (;;) {
        char *slash = strchr(p, '/');
        int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
        if (slash != NULL) {
            *slash = '\0';
            flags |= O_DIRECTORY;
        } else {
            flags |= O_NONBLOCK; /* a FIFO must not block the loop */
        }
        int next = openat(dir, p, flags);
        int e = errno;
        if (dir != w->root)
            close(dir);
        if (next < 0) {
            if (not_there(e))
                return 1;
            return zbc_fail(err, "cannot open %s in the web folder: %s", rel,
                            strerror(e));
        }
        if (slash == NULL) {
            struct stat st;
            if (fstat(next, &st) != 0 || !S_ISREG(st.st_mode)) {
                close(next);
                return 1;
            }
            if ((uint64_t)st.st_size > ZBC_WEB_MAX_FILE) {
                close(next);
                return zbc_fail(err, "%s is larger than the %u bytes the web "
                                "server serves", rel, ZBC_WEB_MAX_FILE);
            }
            *fd = next;
            *found = true;
            return 1;
        }
        dir = next;
        p = slash + 1;
    }
}

/* ---- answers ---- */

static void send_text(struct evhttp_request *req, int status,
                      const char *text)
{
    struct evbuffer *buf = evbuffer_new();
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "text/plain; charset=utf-8");
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    if (buf == NULL) {
        evhttp_send_error(req, 500, "out of memory");
        return;
    }
    evbuffer_add_printf(buf, "%s\n", text);
    evhttp_send_reply(req, status, NULL, buf);
    evbuffer_free(buf);
}

static void send_refusal(struct evhttp_request *req, int status,
                         const char *raw_path, const char *why)
{
    zbc_log_ratelimited("web:4xx", ZBC_LOG_CLIENT_PERIOD_MS, ZBC_LOG_INFO,
                        "web: %.200s -> %d: %s", raw_path, status, why);
    send_text(req, status, why);
}

/* Reads the whole file; 0 when it changed size while read. */
static int read_all(int fd, char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    return 1;
}

void zbc_web_serve(const struct zbc_web *w, struct evhttp_request *req,
                   const char *raw_path)
{
    enum evhttp_cmd_type m = evhttp_request_get_command(req);
    if (m != EVHTTP_REQ_GET && m != EVHTTP_REQ_HEAD) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow",
                          "GET, HEAD");
        send_refusal(req, 405, raw_path, "the web client's files answer "
                     "only GET and HEAD");
        return;
    }
    char rel[ZBC_WEB_MAX_PATH + 1];
    int status = 0;
    struct zbc_err err = {{0}};
    if (!zbc_web_map_path(rel, sizeof rel, &status, raw_path, &err)) {
        send_refusal(req, status, raw_path, err.msg);
        return;
    }
    int fd = -1;
    bool found = false;
    if (!zbc_web_open_file(w, rel, &fd, &found, &err)) {
        zbc_log_ratelimited("web:5xx", ZBC_LOG_PERIOD_MS, ZBC_LOG_ERROR,
                            "web: GET %.200s -> 500: %s", raw_path, err.msg);
        send_text(req, 500, err.msg);
        return;
    }
    if (!found) {
        send_refusal(req, 404, raw_path, "not found");
        return;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        send_text(req, 500, "cannot read the file's size");
        return;
    }
    char etag[96];
    snprintf(etag, sizeof etag, "\"%" PRIx64 "-%" PRIx64 "-%" PRIx64 "\"",
             (uint64_t)st.st_size,
             (uint64_t)st.st_mtim.tv_sec * 1000000000u +
                 (uint64_t)st.st_mtim.tv_nsec,
             (uint64_t)st.st_ino);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "ETag", etag);
    /* no build step, so no content-hashed names: every file is
     * revalidated (a 304 costs one round trip), never used stale */
    evhttp_add_header(h, "Cache-Control", "no-cache");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(h, "Referrer-Policy", "no-referrer");
    evhttp_add_header(h, "X-Frame-Options", "DENY");
    evhttp_add_header(h, "Content-Security-Policy",
                      "default-src 'self'; script-src 'self'; "
                      "style-src 'self'; img-src 'self' data:; "
                      "connect-src 'self'; object-src 'none'; "
                      "base-uri 'none'; frame-ancestors 'none'");
    const char *inm =
        evhttp_find_header(evhttp_request_get_input_headers(req),
                           "If-None-Match");
    if (inm != NULL && strstr(inm, etag) != NULL) {
        close(fd);
        evhttp_send_reply(req, 304, "Not Modified", NULL);
        return;
    }
    size_t n = (size_t)st.st_size;
    evhttp_add_header(h, "Content-Type", zbc_web_content_type(rel));
    if (m == EVHTTP_REQ_HEAD) {
        /* evhttp would send a body given one: the length alone */
        char len[32];
        snprintf(len, sizeof len, "%zu", n);
        evhttp_add_header(h, "Content-Length", len);
        close(fd);
        evhttp_send_reply(req, 200, "OK", NULL);
        return;
    }
    char *data = malloc(n > 0 ? n : 1);
    if (data == NULL || !read_all(fd, data, n)) {
        close(fd);
        free(data);
        send_text(req, 500, "cannot read the file (it changed while read?)");
        return;
    }
    close(fd);
    struct evbuffer *buf = evbuffer_new();
    if (buf == NULL || evbuffer_add(buf, data, n) != 0) {
        free(data);
        if (buf != NULL)
            evbuffer_free(buf);
        evhttp_send_error(req, 500, "out of memory");
        return;
    }
    free(data);
    evhttp_send_reply(req, 200, "OK", buf);
    evbuffer_free(buf);
}

/* ---- the default folder ---- */

int zbc_web_default_dir(char *out, size_t cap, const char *exe,
                        const char *build_root, const char *source_dir,
                        const char *install_dir, struct zbc_err *err)
{
    size_t bl = strlen(build_root);
    bool in_build = bl > 0 && exe != NULL && strncmp(exe, build_root, bl) == 0 &&
                    exe[bl] == '/';
    const char *pick = in_build ? source_dir : install_dir;
    if (strlen(pick) >= cap)
        return zbc_fail(err, "web folder path %s is too long", pick);
    memcpy(out, pick, strlen(pick) + 1);
    return 1;
}
