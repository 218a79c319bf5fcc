import TacitCore

extension Notes {
    /// Why a step or a verification ended, in words. A reason missing here (a
    /// provider's own status) is named as it is instead.
    static let reasons: [EndReason: String] = [
        .timeout: "Nothing completed this step within its time limit.",
        .rejected: "The mobile network says the SIM in the device does not belong to this number.",
        .carrierError: "The mobile operator answered with an error, so it could not confirm the number.",
        .noCoverage: "The number's mobile operator does not support silent authentication, so this step is skipped.",
        .deviceNotCellular: "The device opened the check link over Wi-Fi or another non-cellular network,"
                            + " so the mobile network could not see which SIM it uses.",
        .checkURLReplayed: "The check link was opened a second time; each link works once,"
                           + " so this is treated as a possible replay.",
        .checkURLExpired: "The check link was opened after it expired.",
        .integrityError: "The device received an answer for a different verification and refused to use it.",
        .unavailable: "Silent authentication is not available on this server.",
        .skipped: "The caller asked to skip to the next step.",
        .cancelled: "The caller cancelled the verification.",
        .tooManyAttempts: "too many wrong codes were entered.",
        .simSwapped: "the SIM card changed recently and the policy says to block.",
        .providerError: "The message provider could not deliver the code.",
        .rateLimited: "Too many codes were sent to this number recently, so Tacit did not send another (no provider was"
                      + " called).",
        .destinationDenied: "This server does not send codes to numbers in this range, so nothing was sent (no provider"
                            + " was called).",
    ]
}
