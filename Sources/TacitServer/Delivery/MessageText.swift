import TacitCore

/// What a code message says, by channel. Voice is the text a call would speak, with
/// the digits spaced so a speech engine reads them one by one.
enum MessageText {
    static func body(channel: Channel, brand: String, code: String) -> String {
        switch channel {
        case .sms, .silentAuth:
            return "Your \(brand) code is \(code). Don't share it with anyone."
        case .whatsapp:
            return "Your \(brand) verification code is \(code). For your security, do not share this code."
        case .voice:
            let spoken = code.map(String.init).joined(separator: ", ")
            return "Hello. This is \(brand). Your verification code is: \(spoken). Again, your code is: \(spoken). Goodbye."
        }
    }
}
