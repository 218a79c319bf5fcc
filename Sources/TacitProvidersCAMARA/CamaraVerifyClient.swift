import Foundation
import TacitCore
import TacitCrypto
import TacitProviderKit

/// `POST {apiRoot}/number-verification/v2/verify` (number-verification 2.1.0): does the
/// device the token was issued to hold this number?
struct CamaraVerifyClient: Sendable {
    let settings: CamaraSettings
    let http: any OutboundHTTPClient

    static let path = "/number-verification/v2/verify"
    static let notOnNetwork = "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK"

    /// The body: exactly one of `phoneNumber` or `hashedPhoneNumber` (SHA-256 hex of the E.164 number, with its `+`).
    static func body(phoneNumber: String, hashed: Bool) -> [(String, JSONValue)] {
        hashed ? [("hashedPhoneNumber", .string(Hex.encode(SHA256.hash(Array(phoneNumber.utf8)))))]
            : [("phoneNumber", .string(phoneNumber))]
    }

    /// What one call answered: the operator's verdict, or none, with why when the operator
    /// answered but not as Number Verification must.
    enum Answer: Sendable, Equatable {
        case verdict(SilentVerdict.Result)
        /// A `200` without a boolean `devicePhoneNumberVerified`: not a verdict, least of all a match.
        case malformed
        /// A refused token, an outage, no answer.
        case none
    }

    /// match or no match; `notCellular` when the operator says the token was not earned on
    /// its mobile network; no verdict when it gave none.
    func verify(phoneNumber: String, token: String) async -> Answer {
        guard let url = URL(string: settings.apiURL + Self.path) else { return .none }
        let request = CamaraWire.json(Self.body(phoneNumber: phoneNumber, hashed: settings.verifyHashed), to: url,
                                      token: token, correlator: UUID().uuidString.lowercased())
        guard let response = try? await http.send(request) else { return .none }
        return Self.answer(response)
    }

    static func answer(_ response: OutboundResponse) -> Answer {
        if response.status == 200 {
            guard case .bool(let verified)? = CamaraWire.object(response)?["devicePhoneNumberVerified"] else {
                return .malformed
            }
            return .verdict(verified ? .match : .noMatch)
        }
        return response.status == 403 && CamaraWire.errorCode(response) == notOnNetwork ? .verdict(.notCellular) : .none
    }
}
