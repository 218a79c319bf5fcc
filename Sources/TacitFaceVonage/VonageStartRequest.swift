import Foundation
import TacitCore
import TacitPhone
import TacitServer

/// A `POST /v2/verify` body, validated as Vonage documents it (research §1.2): `brand`
/// 1–18 without `/ { } : $`, a `workflow` of 1–3 channels with `silent_auth` only first,
/// `channel_timeout` 15–900 (default 180), `code_length` 4–10 (default 4), `client_ref`
/// 1–40 letters and digits, a `locale`, `fraud_check`. Every problem found is reported at
/// once, by Vonage's field names, in a 422's `invalid_parameters`.
struct VonageStartRequest: Sendable, Equatable {
    var options: VerificationOptions
    /// The number the phone steps go to; nil for a workflow of email steps alone, which
    /// verifies its address (`options.emailAddress`), as Vonage's does.
    var number: PhoneNumber?

    /// What the verification is of: its number, else its address (`Verification.contact`).
    var contact: String { number?.e164 ?? options.emailAddress ?? "" }

    static let defaultChannelTimeout = 180
    static let defaultCodeLength = 4
    static let brandForbidden = Set("/{}:$")

    /// The validated request, or the problem that refuses it (400 for a body that is not a
    /// JSON object, 422 naming every invalid field).
    static func parse(
        _ body: [UInt8], phones: PhoneNumberParser, allowVirtualRange: Bool
    ) -> Result<Self, VonageProblem> {
        guard case .object(let fields)? = try? JSONParser.parse(body) else {
            return .failure(.malformed("The request body must be a JSON object."))
        }
        var reader = VonageFields(fields)
        let brand = reader.string("brand", required: true)
        if let brand, brand.isEmpty || brand.count > 18 || brand.contains(where: brandForbidden.contains) {
            reader.problem("brand", "must be 1 to 18 characters, none of / { } : $")
        } else if let brand, !VerificationOptions.isPlainText(brand) {
            reader.problem("brand", VerificationOptions.plainTextRule)
        }
        var options = VerificationOptions(codeLength: defaultCodeLength, channelTimeout: defaultChannelTimeout)
        options.brand = brand ?? options.brand
        if let timeout = reader.int("channel_timeout", in: 15...900) { options.channelTimeout = timeout }
        if let length = reader.int("code_length", in: 4...10) { options.codeLength = length }
        options.clientRef = reader.string("client_ref")
        if let ref = options.clientRef,
           !(1...40).contains(ref.count) || !ref.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            reader.problem("client_ref", "must be 1 to 40 letters and digits")
        }
        if let locale = reader.string("locale") {
            if !Self.isLocale(locale) {
                reader.problem("locale", "must look like en-us")
            } else if LocaleCatalog.builtIn.match(locale) == nil {
                reader.problem("locale", LocaleCatalog.unservedReason)
            } else {
                options.locale = locale.lowercased()
            }
        }
        _ = reader.bool("fraud_check")
        if reader.string("code") != nil {
            reader.problem("code", "custom codes are not supported; Tacit makes every code")
        }
        if reader.string("template_id") != nil { reader.problem("template_id", "templates are not supported") }
        let workflow = VonageWorkflow.read(fields["workflow"], into: &reader, phones: phones,
                                           allowVirtualRange: allowVirtualRange)
        options.workflow = workflow.channels
        options.smsAppHash = workflow.smsAppHash
        options.emailAddress = workflow.emailAddress
        guard reader.problems.isEmpty, workflow.number != nil || workflow.emailAddress != nil else {
            return .failure(.invalid(reader.problems.isEmpty
                                         ? [InvalidParameter(name: "workflow", reason: "is required")]
                                         : reader.problems))
        }
        return .success(VonageStartRequest(options: options, number: workflow.number))
    }

    /// What the start guard judges, read even when another field is refused (a bad field
    /// never buys a free pass through the limits): the number the first phone step goes
    /// to, else for a workflow of email steps alone the first one's address when valid.
    static func submission(in body: [UInt8], phones: PhoneNumberParser, allowVirtualRange: Bool) -> StartSubmission {
        guard case .object(let fields)? = try? JSONParser.parse(body),
              case .array(let steps)? = fields["workflow"] else { return StartSubmission(number: nil) }
        var address: String?
        for case .object(let step) in steps {
            guard case .string(let to)? = step["to"] else { continue }
            if case .string("email")? = step["channel"] {
                if address == nil, EmailAddress.problem(to) == nil { address = EmailAddress.normalized(to) }
                continue
            }
            let number = VonageWorkflow.phone(to, phones: phones, allowVirtualRange: allowVirtualRange)
            return StartSubmission(number: number)
        }
        return address.map { StartSubmission(address: $0) } ?? StartSubmission(number: nil)
    }

    private static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { (2...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } }
    }
}
