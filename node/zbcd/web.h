/* The browser client's static files, served by the API's HTTP server at
 * every path outside /api/ (docs/web.md §2).
 *
 * Containment: a request path is mapped to a relative file name by
 * zbc_web_map_path (strict percent-decoding, no encoded slash, NUL or
 * control byte, no "." or ".." or hidden segment, a character set and a
 * length limit, a known extension), then opened one segment at a time
 * below the folder's descriptor with O_NOFOLLOW, so no symbolic link is
 * ever followed inside the folder and nothing outside it can be reached.
 * Only regular files up to ZBC_WEB_MAX_FILE are served; a directory is
 * never listed. */
#ifndef ZBC_NODE_WEB_H
#define ZBC_NODE_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/http.h>

#include "crypto/err.h"

#define ZBC_WEB_MAX_PATH 1024          /* bytes of the raw request path */
#define ZBC_WEB_MAX_DEPTH 16           /* path segments */
#define ZBC_WEB_MAX_SEGMENT 128        /* bytes of one decoded segment */
#define ZBC_WEB_MAX_FILE (16u << 20)   /* bytes of one served file */

struct zbc_web;

/* Maps the raw (still percent-encoded) request path to a file name
 * relative to the web folder ("/" is "index.html").  Refused: *status
 * 400 (malformed or hostile: too long, not starting with '/', a bad
 * escape, an encoded '/' or '\', a NUL or control byte, a "." or ".."
 * segment, too deep) or 404 (an empty segment or a trailing '/', i.e. a
 * directory; a hidden name; a character outside [A-Za-z0-9._@+-]; an
 * extension without a content type), with err naming why. */
ZBC_WUR int zbc_web_map_path(char *rel, size_t cap, int *status,
                             const char *raw, struct zbc_err *err);

/* The Content-Type for a file name by its extension, NULL when the web
 * server does not serve that kind of file. */
const char *zbc_web_content_type(const char *name);

/* Opens the web folder (it must be a directory). */
ZBC_WUR int zbc_web_open(struct zbc_web **out, const char *dir,
                         struct zbc_err *err);
void zbc_web_free(struct zbc_web *w);
const char *zbc_web_dir(const struct zbc_web *w);

/* Opens rel (a zbc_web_map_path result) below the folder without
 * following any symbolic link; only a regular file of at most
 * ZBC_WEB_MAX_FILE bytes.  *found false (success) when there is no such
 * file, it is a link, a directory or another kind of file. */
ZBC_WUR int zbc_web_open_file(const struct zbc_web *w, const char *rel,
                              int *fd, bool *found, struct zbc_err *err);

/* Answers a GET or HEAD request for raw_path: the file with its
 * Content-Type, ETag, Cache-Control and security headers, 304 when
 * If-None-Match names the current ETag, else a plain-text 400/404/500. */
void zbc_web_serve(const struct zbc_web *w, struct evhttp_request *req,
                   const char *raw_path);

/* The default web folder (docs/web.md §2): the source tree's node/web
 * when exe (the running program's real path) lies below build_root, else
 * install_dir.  Pure; zbcd passes the paths meson compiled in. */
ZBC_WUR int zbc_web_default_dir(char *out, size_t cap, const char *exe,
                                const char *build_root,
                                const char *source_dir,
                                const char *install_dir,
                                struct zbc_err *err);

#endif
