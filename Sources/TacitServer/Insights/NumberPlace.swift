import Foundation
import TacitCore
import TacitPhone

/// Where a number is, as insights group it (docs/api.md#insights): its ISO region and its
/// prefix, the country code with the next three digits. Worked out once, at the create.
enum NumberPlace {
    static let parser = PhoneNumberParser()
    /// Digits after the country code that a prefix keeps.
    static let prefixDigits = 3

    /// Sets `verification`'s region and prefix unless set already; a number the parser
    /// can't read keeps neither.
    static func locate(_ verification: inout Verification) {
        guard verification.region == nil, verification.numberPrefix == nil,
              let number = try? parser.parse(verification.phoneNumber, allowVirtualRange: true) else { return }
        verification.region = number.region
        verification.numberPrefix = prefix(of: number)
    }

    /// `number`'s prefix: `+`, its country code and the next three digits.
    static func prefix(of number: PhoneNumber) -> String {
        let digits = number.e164.utf8.dropFirst()
        let kept = String(number.countryCallingCode).count + prefixDigits
        return "+" + String(decoding: digits.prefix(kept), as: UTF8.self)
    }
}
