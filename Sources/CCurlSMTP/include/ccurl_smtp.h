#ifndef CCURL_SMTP_H
#define CCURL_SMTP_H

#include <stddef.h>

/// One SMTP submission through libcurl: connect to `url` (smtp:// with STARTTLS as
/// `require_tls` asks, or smtps://), log in when `username` is given, send `message`
/// (a whole RFC 5322 message, CRLF lines) from `from` to `recipient`. Returns libcurl's
/// result code (0 when the server accepted the message); `response_code` receives the
/// server's last reply code (250, 451, 550), 0 when it never answered. `error` receives
/// libcurl's words, which name neither the message nor the credentials.
int tacit_smtp_send(const char *url, const char *username, const char *password,
                    const char *from, const char *recipient, const char *ca_file,
                    int require_tls, const unsigned char *message, size_t length,
                    long timeout_ms, long *response_code, char *error, size_t error_length);

#endif
