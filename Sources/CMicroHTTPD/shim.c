#include "CMicroHTTPD.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/// Where every daemon's messages go: one Swift function, told the daemon's own `cls`.
static cmhd_log_sink log_sink = NULL;

static void cmhd_format(cmhd_log_sink sink, void *cls, const char *format, va_list arguments) {
    char message[1024];
    vsnprintf(message, sizeof message, format, arguments);
    if (sink) { sink(cls, message); }
}

/// libmicrohttpd's logger: formats the message and hands it to the sink, which decides
/// what of it may be written (a request path can hold a token or a phone number).
static void cmhd_logger(void *cls, const char *format, va_list arguments) {
    cmhd_format(log_sink, cls, format, arguments);
}

static void cmhd_log_to(cmhd_log_sink sink, void *cls, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    cmhd_format(sink, cls, format, arguments);
    va_end(arguments);
}

void cmhd_log_failed_send(cmhd_log_sink sink, void *cls, const char *url) {
    // libmicrohttpd's own wording when a client goes away before its answer.
    cmhd_log_to(sink, cls, "Failed to send the response headers for the request for `%s'. Error: %s\n", url, "connection reset");
}

struct MHD_Daemon *cmhd_start(unsigned int flags, uint16_t port, const struct sockaddr *bind_addr,
                              const struct cmhd_limits *limits,
                              MHD_AcceptPolicyCallback accept_policy,
                              MHD_AccessHandlerCallback handler, void *handler_cls,
                              MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify,
                              cmhd_log_sink sink, const struct cmhd_tls *tls) {
    struct MHD_OptionItem ops[13];
    int i = 0;
    // First, so that no message of the daemon's start-up reaches stderr on its own.
    log_sink = sink;
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)cmhd_logger, handler_cls };
    if (bind_addr) { ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)bind_addr }; }
    if (limits->thread_pool > 1) {
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, limits->thread_pool, NULL };
    }
    if (limits->connection_limit > 0) {
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, limits->connection_limit, NULL };
    }
    // Counted across the whole thread pool, by the peer's full address.
    if (limits->per_address_limit > 0) {
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits->per_address_limit, NULL };
    }
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, limits->connection_timeout, NULL };
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, handler_cls };
    if (notify) { ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, handler_cls }; }
    if (tls) {
        flags |= MHD_USE_TLS;
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls->certificate_pem };
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls->private_key_pem };
    }
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, port, accept_policy, handler_cls, handler, handler_cls,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

int cmhd_tls_supported(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

int cmhd_client_address(struct MHD_Connection *connection, char *buf, size_t len) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr || len == 0) { return -1; }
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
        return inet_ntop(AF_INET, &v4->sin_addr, buf, (socklen_t)len) ? 0 : -1;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            return inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], buf, (socklen_t)len) ? 0 : -1;
        }
        return inet_ntop(AF_INET6, &v6->sin6_addr, buf, (socklen_t)len) ? 0 : -1;
    }
    return -1;
}

socklen_t cmhd_parse_address(const char *host, uint16_t port, struct sockaddr_storage *out) {
    memset(out, 0, sizeof(*out));
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        return sizeof(struct sockaddr_in);
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        return sizeof(struct sockaddr_in6);
    }
    return 0;
}
