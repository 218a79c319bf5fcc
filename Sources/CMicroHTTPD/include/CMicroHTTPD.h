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

/// Starts a daemon through MHD_OPTION_ARRAY, since MHD_start_daemon is variadic.
/// `thread_pool` 0 or 1 means MHD's single internal polling thread. The daemon's
/// messages go to `sink` (the same function for every daemon) instead of stderr.
struct MHD_Daemon *cmhd_start(unsigned int flags, uint16_t port, const struct sockaddr *bind_addr,
                              unsigned int thread_pool, unsigned int connection_limit,
                              unsigned int connection_timeout,
                              MHD_AccessHandlerCallback handler, void *handler_cls,
                              MHD_RequestCompletedCallback completed, void *completed_cls,
                              cmhd_log_sink sink);

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
