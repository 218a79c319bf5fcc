#include "CMicroHTTPD.h"
#include <stdbool.h>
#include <string.h>
#include <strings.h>

// libmicrohttpd 0.9.75 parses a request's header block in place: it zeroes each line's
// CR and LF (a bare LF alone) and each field's colon, and its field names and values
// point into that block. The block's bytes are gone once it is parsed, so this walk
// proves from that layout that every line ended in CRLF, held no NUL and was no obs-fold
// continuation; a pointer that is not where a CRLF line would put it fails the request.

struct walk {
    const char *cursor;
    const char *start;
    const char *end;
    const char *first_length;
    size_t first_length_size;
    struct cmhd_screen *out;
};

static bool is_tchar(unsigned char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) { return true; }
    return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool is_named(const char *key, size_t size, const char *name) {
    return strlen(name) == size && strncasecmp(key, name, size) == 0;
}

static bool inside(const struct walk *w, const char *p) { return p >= w->start && p < w->end; }

static void count_field(struct walk *w, const char *key, size_t key_size, const char *value, size_t value_size) {
    struct cmhd_screen *out = w->out;
    if (key_size == 0) { out->bad_name = 1; }
    for (size_t i = 0; i < key_size; i++) {
        if (!is_tchar((unsigned char)key[i])) { out->bad_name = 1; }
    }
    for (size_t i = 0; i < value_size; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) { out->bad_value = 1; }
    }
    if (is_named(key, key_size, "Host")) { out->host_fields++; }
    if (is_named(key, key_size, "Transfer-Encoding")) { out->transfer_encoding_fields++; }
    if (!is_named(key, key_size, "Content-Length")) { return; }
    if (out->content_length_fields++ == 0) {
        w->first_length = value;
        w->first_length_size = value_size;
    } else if (value_size != w->first_length_size || memcmp(value, w->first_length, value_size) != 0) {
        out->content_length_differs = 1;
    }
}

/// True when the field's line starts where the previous line's CRLF ended, its colon is
/// zeroed right after the name, only spaces and tabs lead to the value, and the value is
/// followed by the two zeroed bytes of a CRLF.
static bool laid_out(const struct walk *w, const char *key, size_t key_size, const char *value, size_t value_size) {
    const char *colon = key + key_size;
    if (key != w->cursor || !inside(w, colon) || colon[0] != '\0' || value <= colon) { return false; }
    if (!inside(w, value + value_size + 1) || value[value_size] != '\0' || value[value_size + 1] != '\0') {
        return false;
    }
    for (const char *p = colon + 1; p < value; p++) {
        if (*p != ' ' && *p != '\t') { return false; }
    }
    return true;
}

static enum MHD_Result screen_field(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                    const char *value, size_t value_size) {
    (void)kind;
    struct walk *w = cls;
    if (!key || !value || !laid_out(w, key, key_size, value, value_size)) {
        w->out->malformed = 1;
        return MHD_NO;
    }
    count_field(w, key, key_size, value, value_size);
    w->cursor = value + value_size + 2;
    return MHD_YES;
}

int cmhd_screen_request(struct MHD_Connection *connection, const char *method, const char *version,
                        struct cmhd_screen *out) {
    memset(out, 0, sizeof(*out));
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (!info || !method || !version) { return -1; }
    struct walk w = { .start = method, .end = method + info->header_size, .out = out };
    size_t version_size = strlen(version);
    const char *line_end = version + version_size;
    if (!inside(&w, version) || !inside(&w, line_end + 1) || line_end[0] != '\0' || line_end[1] != '\0') {
        out->malformed = 1;
        return 0;
    }
    w.cursor = line_end + 2;
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, screen_field, &w);
    bool ends_with_crlf = w.cursor + 2 == w.end && w.cursor[0] == '\0' && w.cursor[1] == '\0';
    if (!out->malformed && !ends_with_crlf) { out->malformed = 1; }
    return 0;
}
