/// Why an `HTTPServer` could not start. The description names the address, never request data.
public struct HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// A stable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The host is not an IPv4 or IPv6 literal, or the port is out of range.
        public static let invalidAddress = Code(name: "invalid-address")
        /// Another socket already listens on the address.
        public static let addressInUse = Code(name: "address-in-use")
        /// libmicrohttpd refused to start for another reason.
        public static let startFailed = Code(name: "start-failed")
        /// TLS was configured but libmicrohttpd was built without it, or GnuTLS refused the
        /// certificate or key.
        public static let tlsFailed = Code(name: "tls-failed")
        /// `start()` was called on a server that already ran.
        public static let alreadyStarted = Code(name: "already-started")
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for operators.
    public let message: String

    public var description: String { "HTTPServerError(\(code)): \(message)" }
}
