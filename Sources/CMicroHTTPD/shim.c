#include "CMicroHTTPD.h"

struct MHD_Daemon *cmhd_start(unsigned int flags, uint16_t port, const struct sockaddr *bind_addr,
                              unsigned int thread_pool, unsigned int connection_limit,
                              unsigned int connection_timeout,
                              MHD_AccessHandlerCallback handler, void *handler_cls,
                              MHD_RequestCompletedCallback completed, void *completed_cls) {
    struct MHD_OptionItem ops[8];
    int i = 0;
    if (bind_addr) { ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)bind_addr }; }
    if (thread_pool > 0) { ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, thread_pool, NULL }; }
    if (connection_limit > 0) { ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL }; }
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout, NULL };
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
