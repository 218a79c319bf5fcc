import Foundation
import TacitCore
import TacitPhone
import TacitServer

/// A Verifications POST, read once for the start guard and the route alike, as
/// `StartSubmission` is for `/v1`: the guard counts the very number the route verifies.
struct TwilioStart: Sendable {
    /// Whom `To` names: a number, or for `Channel=email` an address.
    enum Recipient: Sendable {
        case number(PhoneNumber)
        /// Normalized as `EmailAddress.normalized` stores it.
        case address(String)
    }

    var recipient: Recipient
    var channel: TwilioChannel
    var locale: String?
    /// `AppHash`: an SMS ends with it for Android's SMS Retriever (docs/locales.md#autofill).
    var appHash: String?
    /// `DeviceIp`: the end user's address, canonical (docs/compatible-apis.md#twilio-verify-v2).
    var deviceIP: String?
    /// `RiskCheck=disable`: the start skips the automatic fraud rules.
    var riskCheckDisabled = false

    /// What the face takes from the form (with `DeviceIp` and `RiskCheck` for the start guard);
    /// Twilio's others (`Amount`, `Payee`, `RateLimits`, `ChannelConfiguration`, `Tags`, …) are
    /// accepted and ignored, as Twilio ignores what a service does not use.
    static let supportedChannels = TwilioChannel.allCases.map(\.rawValue).joined(separator: ", ")

    /// The start, or the Twilio error that refuses it: the form, `To`, `Channel`, then the rest.
    static func read(
        _ body: [UInt8], phones: PhoneNumberParser, allowVirtualRange: Bool
    ) -> Result<TwilioStart, TwilioError> {
        Result { () throws(TwilioError) -> TwilioStart in
            guard let form = TwilioForm(body: body) else { throw .malformedForm }
            guard let to = form["To"], !to.isEmpty else { throw .invalidParameter("To") }
            let recipient: Recipient
            if form["Channel"]?.lowercased() == TwilioChannel.email.rawValue {
                // An email verification's `To` is an address, as Twilio's is (docs/compatible-apis.md#email).
                guard EmailAddress.problem(to) == nil else { throw .invalidParameter("To") }
                recipient = .address(EmailAddress.normalized(to))
            } else {
                do {
                    recipient = .number(try phones.parse(to, allowVirtualRange: allowVirtualRange))
                } catch {
                    throw .invalidPhoneNumber
                }
            }
            guard let name = form["Channel"], let channel = TwilioChannel(rawValue: name.lowercased()) else {
                throw .invalidParameter("Channel")
            }
            if form["CustomCode"] != nil { throw .customCodeUnsupported }
            let locale = form["Locale"]
            if let locale, !Self.isLocale(locale) || LocaleCatalog.builtIn.match(locale) == nil {
                throw .invalidParameter("Locale")
            }
            let appHash = form["AppHash"].flatMap { $0.isEmpty ? nil : $0 }
            if let appHash, !SMSAutofill.isAppHash(appHash) { throw .invalidParameter("AppHash") }
            var start = TwilioStart(recipient: recipient, channel: channel, locale: locale?.lowercased(),
                                    appHash: appHash)
            if let address = form["DeviceIp"] {
                guard let device = DeviceAddress.normalized(address) else { throw .invalidParameter("DeviceIp") }
                start.deviceIP = device
            }
            if let check = form["RiskCheck"]?.lowercased() {
                guard ["enable", "disable"].contains(check) else { throw .invalidParameter("RiskCheck") }
                start.riskCheckDisabled = check == "disable"
            }
            return start
        }
    }

    /// The number's E.164 form, or the address: what `Verification.contact` will be.
    var contact: String {
        switch recipient {
        case .number(let number): number.e164
        case .address(let address): address
        }
    }

    /// `To` as a note may show it.
    var redactedTo: String {
        switch recipient {
        case .number(let number): number.redacted
        case .address(let address): EmailAddress.redacted(address)
        }
    }

    /// Twilio's locales (`en`, `pt-br`, `zh-hk`): a language, perhaps a region.
    private static func isLocale(_ text: String) -> Bool {
        (2...10).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") }
    }
}

extension TwilioError {
    /// Codes come from Tacit's CSPRNG only (docs/api.md#the-engines-rules), so a code the app picks is refused.
    static let customCodeUnsupported = TwilioError(status: 400, code: 60204,
                                                   message: "Service does not support this feature")
}

extension StartSubmission {
    /// The start guard's view of a Twilio start: its number or address when the form names
    /// a valid one. The guard never reads the request part; the face validates its own form.
    init(twilio: Result<TwilioStart, TwilioError>) {
        let start = try? twilio.get()
        let (device, unchecked) = (start?.deviceIP, start?.riskCheckDisabled ?? false)
        switch start?.recipient {
        case .address(let address): self.init(address: address, deviceIP: device, riskCheckDisabled: unchecked)
        case .number(let number): self.init(number: number, deviceIP: device, riskCheckDisabled: unchecked)
        case nil: self.init(number: nil)
        }
    }
}
