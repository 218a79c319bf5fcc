import Foundation
import TacitCrypto
import TacitHTTP

/// What every CAMARA route checks first: the `x-correlator` header, the caller's
/// credentials and the JSON body.
struct CamaraRequest: Sendable {
    /// The caller: the operator's API consumer key (server to server) or a token that
    /// came out of the device's network-based authentication.
    enum Caller: Sendable, Equatable {
        case consumer
        case device(AccessToken)
    }

    /// Body fields the routes read; unknown fields are ignored, as CAMARA schemas allow.
    struct Body: Decodable, Sendable {
        var phoneNumber: String?
        var hashedPhoneNumber: String?
        var maxAge: Int?
    }

    /// CAMARA's `x-correlator` pattern: `^[a-zA-Z0-9-_:;.\/<>{}]{0,256}$`.
    static func isValidCorrelator(_ text: String) -> Bool {
        text.count <= 256 && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                           || "-_:;./<>{}".unicodeScalars.contains($0))
        }
    }

    /// CAMARA's phone number pattern: `^\+[1-9][0-9]{4,14}$`.
    static func isValidPhone(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return text.hasPrefix("+") && (5...15).contains(digits.count) && digits.first != "0"
            && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    var correlator: String?
    var caller: Caller
    var body: Body

    /// Reads the request, throwing the CAMARA error the spec names for what is wrong: the
    /// credentials first, then the body. A device token is spent only when the call is
    /// answered, so a call refused for its input doesn't cost the device its one use.
    init(_ request: HTTPRequest, in network: VirtualOperator, readsBody: Bool = true) throws(CamaraError) {
        if let given = request.header("x-correlator"), !Self.isValidCorrelator(given) {
            throw .invalidArgument("The x-correlator header is not valid.")
        }
        correlator = request.header("x-correlator")
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") else {
            throw .unauthenticated
        }
        let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        let consumer = ConstantTime.equals(token, network.configuration.apiKey)
        guard consumer || network.grants.isLive(token, now: network.clock.now()) else { throw .unauthenticated }
        caller = .consumer
        body = Body()
        if readsBody {
            guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(request.body)) else {
                throw .invalidArgument("The request body is not a valid JSON object of the expected fields.")
            }
            body = decoded
            if let phone = body.phoneNumber, !Self.isValidPhone(phone) {
                throw .invalidArgument("phoneNumber must be in E.164 format, like +99012345670.")
            }
        }
        guard !consumer else { return }
        // Looked at, not spent: `VirtualOperator.camara` spends it once the call has its answer.
        guard let access = network.grants.live(token, now: network.clock.now()) else { throw .unauthenticated }
        caller = .device(access)
        self.token = token
    }

    /// The device token the call came with, spent when it is answered; nil for the consumer key.
    private(set) var token: String?

    /// The number the call is about: from the body for a consumer, from the token for a device.
    func subject() throws(CamaraError) -> String {
        switch caller {
        case .consumer:
            guard let phone = body.phoneNumber else { throw .missingIdentifier }
            return phone
        case .device(let token):
            guard body.phoneNumber == nil else { throw .unnecessaryIdentifier }
            return token.simNumber
        }
    }
}
