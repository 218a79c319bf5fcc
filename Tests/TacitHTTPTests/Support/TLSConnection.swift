import Foundation
import TacitTesting
@testable import TacitKit

/// A blocking TLS client for the server's TLS tests: TacitKit's own socket and TLS
/// session, trusting the test CA, for what a URL can't express (a half-sent request,
/// a stream read as it flows). Every wait ends after 5 seconds.
final class TLSConnection: @unchecked Sendable {  // safe: each test uses a connection from one thread at a time
    private let socket: SocketHandle
    private let channel: TLSChannel
    private var received: [UInt8] = []

    /// Made once: loading the system's trust store is slow enough to eat into the
    /// server's request deadline if each connection did it.
    private static let context = Result { try TLSClientContext(trusting: [.pem(TestCertificates.shared.authorityPEM)]) }

    /// Connects to 127.0.0.1 (from `source` when given) and completes the handshake.
    init(port: Int, source: String? = nil) throws {
        let context = try Self.context.get()
        let deadline = ContinuousClock.now + .seconds(5)
        guard let address = try SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true).first else {
            throw CellularTransportError(.connectionFailed, "no address")
        }
        socket = try SocketHandle(family: address.family)
        if let source, let local = try SocketAddress.resolve(host: source, port: 0, numericOnly: true).first {
            try socket.bind(to: local)
        }
        try socket.connect(to: address, deadline: deadline)
        channel = try TLSChannel(over: socket, host: "127.0.0.1", context: context, deadline: deadline)
    }

    func send(_ text: String) throws {
        try channel.write(Array(text.utf8), deadline: .now + .seconds(5))
    }

    /// Reads until the received text contains `marker`; returns everything received so far.
    func read(until marker: String) throws -> String {
        while !text.contains(marker) {
            guard try readSome() else { throw CellularTransportError(.connectionFailed, "closed before the marker") }
        }
        return text
    }

    /// Reads until the server closes the connection (a reset counts as a close).
    func readToEnd() -> String {
        while (try? readSome()) ?? false {}
        return text
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    private func readSome() throws -> Bool {
        let bytes = try channel.read(deadline: .now + .seconds(5))
        received += bytes
        return !bytes.isEmpty
    }
}
