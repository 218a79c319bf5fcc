#if os(Linux)
import Foundation
import Glibc

/// A small HTTP/1.1 client over POSIX sockets that leaves from a chosen source
/// address and/or network interface: how a Linux device (or a test) puts the
/// `check_url` request on the cellular path.
///
/// `http://` and `https://`: TLS is OpenSSL's, with SNI, the certificate chain checked
/// against the system's trust store (plus `extraTrust`) and the name checked against the
/// URL's host, so carrier redirects may cross between the two. On loopback
/// `127.0.0.2`–`127.0.0.254` count as cellular. Blocking I/O runs on a Dispatch queue,
/// off Swift's cooperative pool; Task cancellation shuts the socket.
public struct SocketCellularTransport: CellularTransport {
    /// The local address to bind, e.g. `127.0.0.2` or `::1`.
    public var sourceAddress: String?
    /// The interface to bind with `SO_BINDTODEVICE`, e.g. `wwan0`.
    public var interface: String?
    /// Authorities trusted for `https://` besides the system's, e.g. a test CA. A PEM
    /// file is read once, when the transport's first `https://` exchange sets TLS up.
    public let extraTrust: [CertificateAuthority]
    private let tls: TLSContextCache

    public init(sourceAddress: String? = nil, interface: String? = nil, extraTrust: [CertificateAuthority] = []) {
        self.sourceAddress = sourceAddress
        self.interface = interface
        self.extraTrust = extraTrust
        self.tls = TLSContextCache(trusting: extraTrust)
    }

    /// True when the interface exists and the source address can be bound.
    public var isAvailable: Bool {
        if let interface, if_nametoindex(interface) == 0 { return false }
        guard let sourceAddress else { return true }
        guard let address = try? SocketAddress.resolve(host: sourceAddress, port: 0, numericOnly: true).first,
              let socket = try? SocketHandle(family: address.family) else { return false }
        return (try? socket.bind(to: address)) != nil
    }

    public func send(_ request: CellularRequest) async throws -> CellularResponse {
        try Task.checkCancellation()
        let target = try HTTPTarget(request.url)
        // Before connecting, so the server's clock for the handshake starts with it.
        let context = target.isSecure ? try tls.context() : nil
        let (socket, address) = try makeSocket(for: target)
        let deadline = ContinuousClock.now.advanced(by: request.timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A serial queue of its own, not `.global()`: on Linux the global queue is
                // also Swift's cooperative pool, and blocking it starves every task.
                DispatchQueue(label: "tacit.socket-exchange").async {
                    continuation.resume(with: Result {
                        try socket.connect(to: address, deadline: deadline)
                        let channel = try open(target, over: socket, context: context, deadline: deadline)
                        try channel.write(target.requestBytes(request), deadline: deadline)
                        return try readResponse(channel, isHead: request.method == "HEAD", deadline: deadline)
                    })
                }
            }
        } onCancel: {
            socket.cancel()
        }
    }

    private func makeSocket(for target: HTTPTarget) throws -> (SocketHandle, SocketAddress) {
        let source = try sourceAddress.map {
            guard let first = try SocketAddress.resolve(host: $0, port: 0, numericOnly: true).first else {
                throw CellularTransportError(.unavailable, "invalid source address")
            }
            return first
        }
        let candidates = try SocketAddress.resolve(host: target.host, port: target.port)
        guard let address = candidates.first(where: { source == nil || $0.family == source!.family }) else {
            throw CellularTransportError(.connectionFailed, "no address of the source's family")
        }
        let socket = try SocketHandle(family: address.family)
        if let interface { try socket.bind(toInterface: interface) }
        if let source { try socket.bind(to: source) }
        return (socket, address)
    }

    /// The connected socket itself for `http://`, a verified TLS session over it for `https://`.
    private func open(_ target: HTTPTarget, over socket: SocketHandle, context: TLSClientContext?,
                      deadline: ContinuousClock.Instant) throws -> any ByteChannel {
        guard let context else { return socket }
        return try TLSChannel(over: socket, host: target.host, context: context, deadline: deadline)
    }

    private func readResponse(_ channel: any ByteChannel, isHead: Bool,
                              deadline: ContinuousClock.Instant) throws -> CellularResponse {
        var parser = HTTPResponseParser(isHeadRequest: isHead)
        while true {
            let bytes = try channel.read(deadline: deadline)
            if bytes.isEmpty { return try parser.finish() }
            if let response = try parser.feed(bytes) { return response }
        }
    }
}
#endif
