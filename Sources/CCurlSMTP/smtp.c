// libcurl's SMTP client, called through one plain function: curl_easy_setopt is variadic,
// which Swift can't call. The declarations below are libcurl's stable ABI (its option
// numbers have never changed once published); Debian ships the library without its
// headers unless the -dev package is installed, and the toolchain's URLSession already
// loads this very library.
#include "ccurl_smtp.h"
#include <string.h>

typedef void CURL;
struct curl_slist;
typedef size_t (*curl_read_callback)(char *buffer, size_t size, size_t count, void *context);

extern CURL *curl_easy_init(void);
extern int curl_easy_setopt(CURL *curl, int option, ...);
extern int curl_easy_perform(CURL *curl);
extern int curl_easy_getinfo(CURL *curl, int info, ...);
extern void curl_easy_cleanup(CURL *curl);
extern struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string);
extern void curl_slist_free_all(struct curl_slist *list);
extern const char *curl_easy_strerror(int code);

enum {
    OPT_URL = 10002, OPT_USERNAME = 10173, OPT_PASSWORD = 10174, OPT_MAIL_FROM = 10186,
    OPT_MAIL_RCPT = 10187, OPT_USE_SSL = 119, OPT_CAINFO = 10065, OPT_UPLOAD = 46,
    OPT_READFUNCTION = 20012, OPT_READDATA = 10009, OPT_INFILESIZE_LARGE = 30115,
    OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156, OPT_ERRORBUFFER = 10010,
    OPT_PROTOCOLS_STR = 10318,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    USESSL_TRY = 1, USESSL_ALL = 3,
    CURLE_FAILED_INIT = 2, ERROR_SIZE = 256,
};

struct upload {
    const unsigned char *bytes;
    size_t length;
    size_t sent;
};

static size_t read_message(char *buffer, size_t size, size_t count, void *context) {
    struct upload *upload = context;
    size_t room = size * count;
    size_t left = upload->length - upload->sent;
    size_t n = left < room ? left : room;
    memcpy(buffer, upload->bytes + upload->sent, n);
    upload->sent += n;
    return n;
}

int tacit_smtp_send(const char *url, const char *username, const char *password,
                    const char *from, const char *recipient, const char *ca_file,
                    int require_tls, const unsigned char *message, size_t length,
                    long timeout_ms, long *response_code, char *error, size_t error_length) {
    *response_code = 0;
    if (error_length > 0) error[0] = 0;
    CURL *curl = curl_easy_init();
    if (!curl) return CURLE_FAILED_INIT;
    char buffer[ERROR_SIZE] = {0};
    struct upload upload = {message, length, 0};
    struct curl_slist *recipients = curl_slist_append(NULL, recipient);
    curl_easy_setopt(curl, OPT_URL, url);
    curl_easy_setopt(curl, OPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, OPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, OPT_ERRORBUFFER, buffer);
    curl_easy_setopt(curl, OPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, OPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, OPT_USE_SSL, (long)(require_tls ? USESSL_ALL : USESSL_TRY));
    if (ca_file && *ca_file) curl_easy_setopt(curl, OPT_CAINFO, ca_file);
    if (username && *username) {
        curl_easy_setopt(curl, OPT_USERNAME, username);
        curl_easy_setopt(curl, OPT_PASSWORD, password ? password : "");
    }
    curl_easy_setopt(curl, OPT_MAIL_FROM, from);
    curl_easy_setopt(curl, OPT_MAIL_RCPT, recipients);
    curl_easy_setopt(curl, OPT_UPLOAD, 1L);
    curl_easy_setopt(curl, OPT_READFUNCTION, (curl_read_callback)read_message);
    curl_easy_setopt(curl, OPT_READDATA, &upload);
    curl_easy_setopt(curl, OPT_INFILESIZE_LARGE, (long long)length);
    int result = curl_easy_perform(curl);
    curl_easy_getinfo(curl, INFO_RESPONSE_CODE, response_code);
    if (error_length > 0) {
        const char *words = buffer[0] ? buffer : curl_easy_strerror(result);
        strncpy(error, words, error_length - 1);
        error[error_length - 1] = 0;
    }
    curl_slist_free_all(recipients);
    curl_easy_cleanup(curl);
    return result;
}
