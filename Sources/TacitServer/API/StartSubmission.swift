import Foundation
import TacitCore
import TacitPhone

/// A `POST /v1/verifications` body, read once for the start guard and the route alike:
/// the guard judges the very number, parsed and normalised here, that the route then
/// verifies. A body the route refuses still names a number the guard counts, as long
/// as that number parses, so a bad field never buys a free pass through the limits.
public struct StartSubmission: Sendable {
    /// The validated request, or the problem (400, 422) the route answers with.
    let request: Result<StartRequest, APIProblem>
    /// The number the body names, in E.164; nil when it names none (not a JSON object,
    /// or no `phone_number` string).
    let number: Result<PhoneNumber, APIProblem>?
    /// The address a verification of an address alone is for; nil for a number's.
    let address: String?
    /// The end user's address the start names, canonical (`DeviceAddress`), when valid: the
    /// per-address limit counts it instead of the caller's (docs/security.md#the-end-users-address).
    let deviceIP: String?
    /// The start asks to skip the automatic rules (`risk_check: disable`, a face's own field).
    let riskCheckDisabled: Bool

    init(body: [UInt8], phones: PhoneNumberParser = PhoneNumberParser(), allowVirtualRange: Bool) {
        let json: JSONRequest
        do {
            json = try JSONRequest(body: body)
        } catch {
            request = .failure(error)
            number = nil
            address = nil
            deviceIP = nil
            riskCheckDisabled = false
            return
        }
        request = Result { () throws(APIProblem) -> StartRequest in try StartRequest(json) }
        address = nil
        deviceIP = json.peekString("device_ip").flatMap(DeviceAddress.normalized)
        riskCheckDisabled = json.peekString("risk_check") == "disable"
        guard let text = json.peekString("phone_number") else {
            number = nil
            return
        }
        let country = json.peekString("country")
        number = Result { () throws(APIProblem) -> PhoneNumber in
            try Self.parse(text, country: country, phones: phones, allowVirtualRange: allowVirtualRange)
        }
    }

    private static func parse(_ text: String, country: String?, phones: PhoneNumberParser,
                              allowVirtualRange: Bool) throws(APIProblem) -> PhoneNumber {
        do {
            return try phones.parse(text, defaultRegion: country, allowVirtualRange: allowVirtualRange)
        } catch {
            throw .invalidPhoneNumber(error.description)
        }
    }

    /// A start through a face that reads and validates its own body: the start guard needs
    /// only the number, when the body names one that parses.
    /// `deviceIP` is the end user's address the face's form names, already validated and
    /// canonical (`DeviceAddress.normalized`); `riskCheckDisabled` its own risk-check switch.
    public init(number: PhoneNumber?, deviceIP: String? = nil, riskCheckDisabled: Bool = false) {
        // Never read: a face answers with its own validation, not with `validated()`.
        request = .failure(.unavailable)
        self.number = number.map { .success($0) }
        address = nil
        self.deviceIP = deviceIP
        self.riskCheckDisabled = riskCheckDisabled
    }

    /// A start of a verification of an address alone (a face's email
    /// channel): the guard limits it by its normalized, valid address as it does a number.
    public init(address: String, deviceIP: String? = nil, riskCheckDisabled: Bool = false) {
        request = .failure(.unavailable)
        number = nil
        self.address = address
        self.deviceIP = deviceIP
        self.riskCheckDisabled = riskCheckDisabled
    }

    /// The number, when it parsed: what the guard acts on.
    var parsedNumber: PhoneNumber? { try? number?.get() }

    /// The request and its number, or the problem that refuses the start: the request's
    /// own first, then the number's.
    func validated() throws(APIProblem) -> (StartRequest, PhoneNumber) {
        let start = try request.get()
        // A valid request always names its number as a string, so this is never nil.
        guard let number else { throw .invalidPhoneNumber("The phone number is missing.") }
        return (start, try number.get())
    }
}
