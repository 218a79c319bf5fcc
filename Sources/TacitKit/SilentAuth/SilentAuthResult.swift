/// What a device-side silent-auth run achieved. It never says whether the
/// verification passed: the backend reads that from the server.
public enum SilentAuthResult: Sendable, Equatable {
    /// The carrier's code was handed to the server.
    case submitted
    /// The device could not get a code; `name` is stable: `device_not_cellular`,
    /// `timeout_error`, `redirect_error`, `integrity_error`, `connection_error`,
    /// `certificate_error` (an `https://` hop's certificate failed verification),
    /// `tls_error` (its TLS handshake failed otherwise), `invalid_response`, or the server's problem slug in snake_case
    /// (e.g. `check_url_used`, `check_url_expired`).
    case clientError(name: String, message: String)
    /// The code was obtained but the server did not take it.
    case failed(reason: FailureReason)

    /// Why submitting the code failed (or the run was stopped).
    public enum FailureReason: String, Sendable {
        case invalidInput, unauthorized, notFound, notAccepted, network, server, cancelled
    }

    /// The stable name of a client error, if this is one.
    public var clientErrorName: String? {
        if case .clientError(let name, _) = self { return name }
        return nil
    }
}
