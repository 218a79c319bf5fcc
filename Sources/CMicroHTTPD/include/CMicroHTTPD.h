#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// `MHD_CONTENT_READER_END_OF_STREAM` without the cast, so Swift can import it.
#define CMHD_READER_END_OF_STREAM -1
/// `MHD_CONTENT_READER_END_WITH_ERROR` without the cast, so Swift can import it.
#define CMHD_READER_END_WITH_ERROR -2

/// Receives each message libmicrohttpd logs, formatted, with the daemon's `handler_cls`.
typedef void (*cmhd_log_sink)(void *cls, const char *message);

/// How much a daemon takes on. `thread_pool` 0 or 1 means MHD's single internal polling
/// thread; a `connection_limit` or `per_address_limit` of 0 means libmicrohttpd's default
/// (no limit per address); `connection_timeout` is idle seconds, 0 for none.
struct cmhd_limits {
    unsigned int thread_pool;
    unsigned int connection_limit;
    unsigned int per_address_limit;
    unsigned int connection_timeout;
};

/// A certificate chain and its private key, both PEM, NUL-terminated. libmicrohttpd
/// (through GnuTLS) reads them while the daemon starts.
struct cmhd_tls {
    const char *certificate_pem;
    const char *private_key_pem;
};

/// Starts a daemon through MHD_OPTION_ARRAY, since MHD_start_daemon is variadic. The
/// daemon's messages go to `sink` (the same function for every daemon) instead of stderr;
/// `completed` and `notify` (when given) are called with `handler_cls`. With `tls` the
/// daemon speaks only HTTPS.
struct MHD_Daemon *cmhd_start(unsigned int flags, uint16_t port, const struct sockaddr *bind_addr,
                              const struct cmhd_limits *limits,
                              MHD_AcceptPolicyCallback accept_policy,
                              MHD_AccessHandlerCallback handler, void *handler_cls,
                              MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify,
                              cmhd_log_sink sink, const struct cmhd_tls *tls);

/// 1 when the installed libmicrohttpd was built with TLS (GnuTLS), else 0.
int cmhd_tls_supported(void);

/// The connection's socket, or -1.
int cmhd_connection_fd(struct MHD_Connection *connection);

/// What screening a request's header block found; all zero for a well-formed block.
struct cmhd_screen {
    /// A line not ended by CRLF (a bare LF), a NUL in a line, or an obs-fold continuation.
    int malformed;
    /// A field name that is not an RFC 9110 token, e.g. whitespace before the colon.
    int bad_name;
    /// A control character other than HTAB in a field value.
    int bad_value;
    int host_fields;
    int content_length_fields;
    /// Two `Content-Length` fields whose values differ.
    int content_length_differs;
    int transfer_encoding_fields;
};

/// Screens the header block of the request being read, in the access handler's first call
/// (`method` and `version` as that call got them). Returns 0, or -1 when the block can't
/// be found, so nothing was screened.
int cmhd_screen_request(struct MHD_Connection *connection, const char *method, const char *version,
                        struct cmhd_screen *out);

/// Formats, as the daemon's logger does, the message libmicrohttpd writes when a client
/// goes away before its answer, naming `url`, and hands it to `sink`. For tests.
void cmhd_log_failed_send(cmhd_log_sink sink, void *cls, const char *url);

/// The port the daemon is bound to (useful with port 0).
uint16_t cmhd_bound_port(struct MHD_Daemon *daemon);

/// Writes the connection's peer address as text ("127.0.0.2", "::1") into `buf`.
/// IPv4-mapped IPv6 addresses are written in their IPv4 form. Returns 0 on success.
int cmhd_client_address(struct MHD_Connection *connection, char *buf, size_t len);

/// Builds a `sockaddr_in`/`sockaddr_in6` for a numeric host literal into `out`.
/// Returns the address length, or 0 when `host` is not an IPv4 or IPv6 literal.
socklen_t cmhd_parse_address(const char *host, uint16_t port, struct sockaddr_storage *out);
#endif
