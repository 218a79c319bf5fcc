import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// Starts libmicrohttpd for a `ServerCore`, turning failures into `HTTPServerError`.
enum DaemonStarter {
    static func start(_ core: ServerCore) throws -> OpaquePointer {
        let configuration = core.configuration
        guard (0...65_535).contains(configuration.port) else {
            throw HTTPServerError(code: .invalidAddress, message: "Port \(configuration.port) is out of range.")
        }
        var address = sockaddr_storage()
        let length = cmhd_parse_address(configuration.host, UInt16(configuration.port), &address)
        guard length > 0 else {
            throw HTTPServerError(code: .invalidAddress, message: "Host \(configuration.host) is not an IP literal.")
        }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        if Int32(address.ss_family) == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        if core.tls != nil, cmhd_tls_supported() == 0 {
            throw HTTPServerError(code: .tlsFailed, message: "This libmicrohttpd was built without TLS support.")
        }
        errno = 0
        var limits = cmhd_limits(
            thread_pool: UInt32(max(1, configuration.threadPoolSize)),
            connection_limit: UInt32(max(1, configuration.connectionLimit)),
            per_address_limit: UInt32(max(0, configuration.connectionsPerAddress)),
            connection_timeout: UInt32(max(0, configuration.connectionTimeoutSeconds)))
        var tls = core.tls.map { cmhd_tls(certificate_pem: $0.certificate, private_key_pem: $0.privateKey) }
        let daemon = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                withOptionalPointer(to: &tls) { tlsPointer in
                    cmhd_start(
                        flags, UInt16(configuration.port), sockaddrPointer, &limits, tacitAcceptPolicy,
                        tacitAccessHandler, Unmanaged.passUnretained(core).toOpaque(),
                        tacitRequestCompleted, tacitConnectionNotify, tacitLog, tlsPointer)
                }
            }
        }
        guard let daemon else { throw failure(configuration, errno: errno) }
        return daemon
    }

    private static func withOptionalPointer<T, R>(to value: inout T?, _ body: (UnsafePointer<T>?) -> R) -> R {
        guard value != nil else { return body(nil) }
        return withUnsafePointer(to: &value!) { body($0) }
    }

    private static func failure(_ configuration: HTTPServer.Configuration, errno code: Int32) -> HTTPServerError {
        let place = "\(configuration.host) port \(configuration.port)"
        if code == EADDRINUSE {
            return HTTPServerError(code: .addressInUse, message: "Another process already listens on \(place).")
        }
        if configuration.tls != nil {
            // GnuTLS's refusal of the credentials leaves no errno of its own.
            return HTTPServerError(code: .tlsFailed,
                                   message: "Could not serve TLS on \(place): the certificate or key was refused.")
        }
        return HTTPServerError(code: .startFailed, message: "Could not listen on \(place) (errno \(code)).")
    }
}
