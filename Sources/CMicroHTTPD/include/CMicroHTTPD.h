#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a daemon through MHD_OPTION_ARRAY, since MHD_start_daemon is variadic.
/// `thread_pool` 0 means MHD's single internal polling thread.
struct MHD_Daemon *cmhd_start(unsigned int flags, uint16_t port, const struct sockaddr *bind_addr,
                              unsigned int thread_pool, unsigned int connection_limit,
                              unsigned int connection_timeout,
                              MHD_AccessHandlerCallback handler, void *handler_cls,
                              MHD_RequestCompletedCallback completed, void *completed_cls);

/// The port the daemon is bound to (useful with port 0).
uint16_t cmhd_bound_port(struct MHD_Daemon *daemon);
#endif
