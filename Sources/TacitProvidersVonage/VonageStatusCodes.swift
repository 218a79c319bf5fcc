import Foundation

/// The SMS API's `status` codes other than "0"
/// (https://developer.vonage.com/en/messaging/sms/guides/troubleshooting-sms),
/// each with the step's reason and Tacit's words for it (Vonage's `error-text` may quote
/// the number). Only a problem with the number itself is permanent: no provider would do
/// better. Throttling, outages, the account's own settings and credentials may pass elsewhere.
enum VonageStatusCodes {
    struct Known {
        var permanent: Bool
        var reason: String
        var words: String
    }

    static let all: [String: Known] = [
        "1": Known(permanent: false, reason: "provider_throttled",
                   words: "Vonage throttled the account's sending rate"),
        "2": Known(permanent: false, reason: "provider_error", words: "Vonage found a required parameter missing"),
        "3": Known(permanent: false, reason: "provider_error", words: "Vonage found a parameter's value invalid"),
        "4": Known(permanent: false, reason: "provider_credentials", words: "Vonage refused the API key and secret"),
        "5": Known(permanent: false, reason: "provider_error", words: "Vonage had an internal error"),
        "6": Known(permanent: true, reason: "invalid_number", words: "Vonage does not recognise the number's prefix"),
        "7": Known(permanent: true, reason: "number_blocked", words: "the number is barred"),
        "8": Known(permanent: false, reason: "provider_account", words: "the Vonage account is barred"),
        "9": Known(permanent: false, reason: "provider_quota", words: "the Vonage account has no credit left"),
        "10": Known(permanent: false, reason: "provider_throttled", words: "too many connections to Vonage"),
        "11": Known(permanent: false, reason: "provider_account", words: "the account is not enabled for the SMS API"),
        "12": Known(permanent: false, reason: "provider_error", words: "Vonage found the message too long"),
        "14": Known(permanent: false, reason: "provider_credentials", words: "Vonage refused the request's signature"),
        "15": Known(permanent: false, reason: "provider_account", words: "Vonage refused the sender"),
        "17": Known(permanent: false, reason: "provider_error", words: "Vonage's carrier blocked the message"),
        "22": Known(permanent: false, reason: "provider_error", words: "Vonage found the network code invalid"),
        "23": Known(permanent: false, reason: "provider_error", words: "Vonage found the callback URL invalid"),
        "29": Known(permanent: true, reason: "destination_not_permitted",
                    words: "the account may not send to this number"),
        "32": Known(permanent: false, reason: "provider_credentials",
                    words: "Vonage refused a signature and a secret together"),
        "33": Known(permanent: true, reason: "unreachable_number", words: "the number is de-activated"),
    ]
}
