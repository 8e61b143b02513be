/* The web client's static files (node/zbcd/web.h, docs/web.md §2): the
 * request path rules, content types, opening below the folder without
 * following links, the default folder. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/zbcd/web.h"
#include "testlib.h"

/* Maps raw; returns the status (200 for a file name) and the name or the
 * refusal's sentence in out. */
static int map(const char *raw, char *out, size_t cap)
{
    int status = 0;
    struct zbc_err err = {{0}};
    if (zbc_web_map_path(out, cap, &status, raw, &err))
        return 200;
    snprintf(out, cap, "%s", err.msg);
    return status;
}

static void test_map_ok(void)
{
    char out[ZBC_WEB_MAX_PATH + 1];
    CHECK_EQ_INT(map("/", out, sizeof out), 200);
    CHECK_EQ_STR(out, "index.html");
    CHECK_EQ_INT(map("/index.html", out, sizeof out), 200);
    CHECK_EQ_STR(out, "index.html");
    CHECK_EQ_INT(map("/js/app.js", out, sizeof out), 200);
    CHECK_EQ_STR(out, "js/app.js");
    CHECK_EQ_INT(map("/node_modules/@noble/hashes/sha3.js", out, sizeof out),
                 200);
    CHECK_EQ_STR(out, "node_modules/@noble/hashes/sha3.js");
    /* an escape of an allowed character decodes */
    CHECK_EQ_INT(map("/j%73/app.js", out, sizeof out), 200);
    CHECK_EQ_STR(out, "js/app.js");
    CHECK_EQ_INT(map("/%40noble.js", out, sizeof out), 200);
    CHECK_EQ_STR(out, "@noble.js");
    CHECK_EQ_INT(map("/a..b.css", out, sizeof out), 200);
    CHECK_EQ_STR(out, "a..b.css");
}

static void test_map_traversal(void)
{
    char out[ZBC_WEB_MAX_PATH + 1];
    CHECK_EQ_INT(map("/../etc/passwd", out, sizeof out), 400);
    CHECK_EQ_STR(out, "path segment '..' is not allowed");
    CHECK_EQ_INT(map("/js/../../x.js", out, sizeof out), 400);
    CHECK_EQ_INT(map("/..", out, sizeof out), 400);
    CHECK_EQ_INT(map("/./index.html", out, sizeof out), 400);
    CHECK_EQ_STR(out, "path segment '.' is not allowed");
    /* encoded dots decode to a ".." segment: still refused */
    CHECK_EQ_INT(map("/%2e%2e/etc/passwd", out, sizeof out), 400);
    CHECK_EQ_STR(out, "path segment '..' is not allowed");
    CHECK_EQ_INT(map("/%2E%2E/x.js", out, sizeof out), 400);
    CHECK_EQ_INT(map("/.%2e/x.js", out, sizeof out), 400);
    /* an encoded slash or backslash is never a separator */
    CHECK_EQ_INT(map("/..%2fetc%2fpasswd", out, sizeof out), 400);
    CHECK_EQ_STR(out, "an encoded '/' or '\\' in the request path is not "
                      "allowed");
    CHECK_EQ_INT(map("/js%2Fapp.js", out, sizeof out), 400);
    CHECK_EQ_INT(map("/..%5c..%5cx.js", out, sizeof out), 400);
    CHECK_EQ_INT(map("/..\\x.js", out, sizeof out), 400);
    /* NUL and control bytes */
    CHECK_EQ_INT(map("/index.html%00.js", out, sizeof out), 400);
    CHECK_EQ_STR(out, "a NUL byte in the request path is not allowed");
    CHECK_EQ_INT(map("/a%0a.js", out, sizeof out), 400);
    CHECK_EQ_INT(map("/a%7f.js", out, sizeof out), 400);
    /* malformed escapes */
    CHECK_EQ_INT(map("/a%", out, sizeof out), 400);
    CHECK_EQ_STR(out, "malformed percent-escape in the request path");
    CHECK_EQ_INT(map("/a%2", out, sizeof out), 400);
    CHECK_EQ_INT(map("/a%zz.js", out, sizeof out), 400);
    CHECK_EQ_INT(map("/a%%32f.js", out, sizeof out), 400);
    /* not absolute */
    CHECK_EQ_INT(map("index.html", out, sizeof out), 400);
    CHECK_EQ_INT(map("", out, sizeof out), 400);
}

static void test_map_not_found(void)
{
    char out[ZBC_WEB_MAX_PATH + 1];
    /* directories are not listed */
    CHECK_EQ_INT(map("/js/", out, sizeof out), 404);
    CHECK_EQ_INT(map("//etc/passwd", out, sizeof out), 404);
    CHECK_EQ_INT(map("/js//app.js", out, sizeof out), 404);
    CHECK_EQ_INT(map("/js", out, sizeof out), 404); /* no extension */
    /* hidden names */
    CHECK_EQ_INT(map("/.git/config.txt", out, sizeof out), 404);
    CHECK_EQ_STR(out, "not found: hidden files are not served");
    CHECK_EQ_INT(map("/node_modules/.package-lock.json", out, sizeof out),
                 404);
    CHECK_EQ_INT(map("/%2egit/HEAD.txt", out, sizeof out), 404);
    /* characters outside the set */
    CHECK_EQ_INT(map("/a%20b.js", out, sizeof out), 404);
    CHECK_EQ_INT(map("/%c3%a9.js", out, sizeof out), 404);
    CHECK_EQ_INT(map("/a:b.js", out, sizeof out), 404);
    /* kinds of file not served */
    CHECK_EQ_INT(map("/zbcd.c", out, sizeof out), 404);
    CHECK_EQ_INT(map("/key.pem", out, sizeof out), 404);
    CHECK_EQ_INT(map("/node.key", out, sizeof out), 404);
}

static void test_map_limits(void)
{
    char out[ZBC_WEB_MAX_PATH + 1];
    char raw[4 * ZBC_WEB_MAX_PATH];
    /* exactly the limit passes the length check */
    memset(raw, 'a', ZBC_WEB_MAX_PATH);
    raw[0] = '/';
    raw[ZBC_WEB_MAX_PATH] = '\0';
    CHECK_EQ_INT(map(raw, out, sizeof out), 400); /* a 1023-byte segment */
    CHECK_EQ_STR(out, "a path segment is longer than 128 bytes");
    memset(raw, 'a', sizeof raw - 1);
    raw[0] = '/';
    raw[sizeof raw - 1] = '\0';
    CHECK_EQ_INT(map(raw, out, sizeof out), 400);
    CHECK_EQ_STR(out, "request path is longer than 1024 bytes");
    /* depth */
    raw[0] = '\0';
    for (int i = 0; i < ZBC_WEB_MAX_DEPTH + 1; i++)
        strcat(raw, "/a");
    strcat(raw, ".js");
    CHECK_EQ_INT(map(raw, out, sizeof out), 400);
    CHECK_EQ_STR(out, "request path has more than 16 segments");
    /* a small output buffer is refused, never overrun */
    char small[8];
    CHECK_EQ_INT(map("/abcdefgh.js", small, sizeof small), 400);
    CHECK_EQ_INT(map("/ab.js", small, sizeof small), 200);
    CHECK_EQ_STR(small, "ab.js");
}

static void test_content_types(void)
{
    CHECK_EQ_STR(zbc_web_content_type("index.html"),
                 "text/html; charset=utf-8");
    CHECK_EQ_STR(zbc_web_content_type("a/b.css"), "text/css; charset=utf-8");
    CHECK_EQ_STR(zbc_web_content_type("app.js"),
                 "text/javascript; charset=utf-8");
    CHECK_EQ_STR(zbc_web_content_type("m.mjs"),
                 "text/javascript; charset=utf-8");
    CHECK_EQ_STR(zbc_web_content_type("board.svg"), "image/svg+xml");
    CHECK_EQ_STR(zbc_web_content_type("shot.png"), "image/png");
    CHECK_EQ_STR(zbc_web_content_type("package.json"), "application/json");
    CHECK_EQ_STR(zbc_web_content_type("f.woff2"), "font/woff2");
    CHECK(zbc_web_content_type("x.c") == NULL);
    CHECK(zbc_web_content_type("js") == NULL);
    CHECK(zbc_web_content_type("a.js/b") == NULL);
    CHECK(zbc_web_content_type(".js") == NULL);
    CHECK(zbc_web_content_type("a/.js") == NULL);
    CHECK(zbc_web_content_type("x.JS") == NULL);
}

static char base[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", base, rel);
    FILE *f = fopen(p, "w");
    if (f == NULL)
        exit(2);
    fputs(text, f);
    fclose(f);
}

/* Opens rel below DIR/web; returns 1 found, 0 not found, -1 error. */
static int open_rel(const struct zbc_web *w, const char *rel, char *text,
                    size_t cap)
{
    int fd = -1;
    bool found = true;
    struct zbc_err err = {{0}};
    if (!zbc_web_open_file(w, rel, &fd, &found, &err)) {
        snprintf(text, cap, "%s", err.msg);
        return -1;
    }
    if (!found)
        return 0;
    ssize_t n = read(fd, text, cap - 1);
    text[n > 0 ? n : 0] = '\0';
    close(fd);
    return 1;
}

static void test_open_file(void)
{
    strcpy(base, "/tmp/zbc_test_web_XXXXXX");
    if (mkdtemp(base) == NULL)
        exit(2);
    char p[256], q[256];
    snprintf(p, sizeof p, "%s/web", base);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/web/js", base);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/web/sub", base);
    mkdir(p, 0700);
    put("web/index.html", "<html>");
    put("web/js/app.js", "export {};");
    put("secret.txt", "outside");
    /* links out of the folder: a file, a directory; and one inside */
    snprintf(p, sizeof p, "%s/secret.txt", base);
    snprintf(q, sizeof q, "%s/web/out.txt", base);
    CHECK(symlink(p, q) == 0);
    snprintf(q, sizeof q, "%s/web/up", base);
    CHECK(symlink("..", q) == 0);
    snprintf(q, sizeof q, "%s/web/in.html", base);
    CHECK(symlink("index.html", q) == 0);
    snprintf(q, sizeof q, "%s/web/jslink", base);
    CHECK(symlink("js", q) == 0);
    snprintf(q, sizeof q, "%s/web/fifo.txt", base);
    CHECK(mkfifo(q, 0600) == 0);
    snprintf(q, sizeof q, "%s/web/dir.css", base);
    mkdir(q, 0700);

    struct zbc_web *w = NULL;
    struct zbc_err err = {{0}};
    snprintf(p, sizeof p, "%s/web", base);
    CHECK(zbc_web_open(&w, p, &err));
    CHECK_EQ_STR(zbc_web_dir(w), p);
    char text[64];
    CHECK_EQ_INT(open_rel(w, "index.html", text, sizeof text), 1);
    CHECK_EQ_STR(text, "<html>");
    CHECK_EQ_INT(open_rel(w, "js/app.js", text, sizeof text), 1);
    CHECK_EQ_STR(text, "export {};");
    CHECK_EQ_INT(open_rel(w, "missing.js", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "js/missing.js", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "index.html/x.js", text, sizeof text), 0);
    /* no link is followed, out of the folder or inside it */
    CHECK_EQ_INT(open_rel(w, "out.txt", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "up/secret.txt", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "in.html", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "jslink/app.js", text, sizeof text), 0);
    /* only regular files: a FIFO (not blocking) and a directory */
    CHECK_EQ_INT(open_rel(w, "fifo.txt", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "dir.css", text, sizeof text), 0);
    CHECK_EQ_INT(open_rel(w, "sub", text, sizeof text), 0);
    /* a file over the cap is an error naming it, not served */
    snprintf(q, sizeof q, "%s/web/big.png", base);
    int fd = open(q, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)ZBC_WEB_MAX_FILE + 1) == 0);
    close(fd);
    CHECK_EQ_INT(open_rel(w, "big.png", text, sizeof text), -1);
    CHECK(strstr(text, "big.png is larger than") != NULL);
    zbc_web_free(w);

    /* the folder must be a directory */
    snprintf(p, sizeof p, "%s/web/index.html", base);
    CHECK(!zbc_web_open(&w, p, &err));
    CHECK(strstr(err.msg, "cannot open the web folder") != NULL);
    snprintf(p, sizeof p, "%s/nope", base);
    CHECK(!zbc_web_open(&w, p, &err));

    snprintf(p, sizeof p, "rm -rf '%s'", base);
    if (system(p) != 0)
        fprintf(stderr, "cleanup failed\n");
}

static void test_default_dir(void)
{
    char out[64];
    struct zbc_err err = {{0}};
    CHECK(zbc_web_default_dir(out, sizeof out, "/src/build/node/zbcd/zbcd",
                              "/src/build", "/src/node/web",
                              "/usr/local/share/zbc/web", &err));
    CHECK_EQ_STR(out, "/src/node/web");
    CHECK(zbc_web_default_dir(out, sizeof out, "/usr/local/bin/zbcd",
                              "/src/build", "/src/node/web",
                              "/usr/local/share/zbc/web", &err));
    CHECK_EQ_STR(out, "/usr/local/share/zbc/web");
    /* a sibling whose name starts like the build root is not inside it */
    CHECK(zbc_web_default_dir(out, sizeof out, "/src/build-asan/zbcd",
                              "/src/build", "/src/node/web",
                              "/usr/share/zbc/web", &err));
    CHECK_EQ_STR(out, "/usr/share/zbc/web");
    CHECK(zbc_web_default_dir(out, sizeof out, "", "/src/build",
                              "/src/node/web", "/usr/share/zbc/web", &err));
    CHECK_EQ_STR(out, "/usr/share/zbc/web");
    char tiny[8];
    CHECK(!zbc_web_default_dir(tiny, sizeof tiny, "/x", "/src/build",
                               "/src/node/web", "/usr/share/zbc/web", &err));
}

int main(void)
{
    TEST_RUN(test_map_ok);
    TEST_RUN(test_map_traversal);
    TEST_RUN(test_map_not_found);
    TEST_RUN(test_map_limits);
    TEST_RUN(test_content_types);
    TEST_RUN(test_open_file);
    TEST_RUN(test_default_dir);
    return test_summary("node_web");
}
