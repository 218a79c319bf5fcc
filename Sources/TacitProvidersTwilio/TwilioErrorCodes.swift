import Foundation

/// Twilio's error codes that mean the number itself can't be reached by this channel
/// (https://www.twilio.com/docs/api/errors): no provider would do better, so the step
/// fails with the reason. Every other refusal fails over to the next provider.
enum TwilioErrorCodes {
    struct Known {
        /// The step's reason.
        var reason: String
        /// Tacit's words for it: Twilio's own message may quote the number.
        var words: String
    }

    static let permanent: [String: Known] = [
        "21211": Known(reason: "invalid_number", words: "the 'To' number is not a valid phone number"),
        "21217": Known(reason: "invalid_number", words: "the phone number does not appear to be valid"),
        "21401": Known(reason: "invalid_number", words: "the number is not a valid phone number for a call"),
        "21407": Known(reason: "unreachable_number", words: "this number's type does not support SMS"),
        "21408": Known(reason: "destination_not_permitted", words: "the account may not send to this region"),
        "21215": Known(reason: "destination_not_permitted", words: "the account may not call this region"),
        "21216": Known(reason: "number_blocked", words: "calls to this number are blocked"),
        "21610": Known(reason: "number_opted_out", words: "the recipient replied STOP and has opted out"),
        "21612": Known(reason: "unreachable_number", words: "Twilio cannot route a message to this number"),
        "21614": Known(reason: "unreachable_number", words: "the 'To' number is not a mobile number"),
        "63003": Known(reason: "unreachable_number", words: "the number has no WhatsApp account"),
    ]
}
