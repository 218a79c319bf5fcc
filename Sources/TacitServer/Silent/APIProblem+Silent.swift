import TacitHTTP

/// The check_url's answers to the device: stable slugs, and no secret in any detail.
extension APIProblem {
    static let checkURLInvalid = APIProblem(status: 404, type: "check-url-invalid", title: "Unknown check URL",
                                            detail: "This check URL was not issued by this server.")
    static let checkURLExpired = APIProblem(status: 410, type: "check-url-expired", title: "Check URL expired",
                                            detail: "This check URL has expired; the verification moved on to its next"
                                                    + " step.")
    public static let checkURLUsed = APIProblem(status: 410, type: "check-url-used", title: "Check URL already used",
                                         detail: "A check URL works once; opening it again failed the silent step.")
    static let checkURLInactive = APIProblem(status: 410, type: "check-url-inactive", title: "Silent step not active",
                                             detail: "The silent step this check URL belongs to has already ended.")
    static let deviceNotCellular = APIProblem(status: 403, type: "device-not-cellular", title: "Device not on cellular",
                                              detail: "The check URL must be opened over the mobile data network,"
                                                      + " not Wi-Fi.")
    static let simMismatch = APIProblem(status: 403, type: "sim-mismatch", title: "SIM does not match",
                                        detail: "The mobile network says the SIM in this device holds another number.")
    static let silentDeviceMismatch = APIProblem(status: 403, type: "silent-device-mismatch",
                                                 title: "Not the device that opened the check",
                                                 detail: "The operator's answer must come back from the device that"
                                                         + " opened the check URL; it was refused and nothing changed.")
    static let operatorAnswerInvalid = APIProblem(status: 403, type: "operator-answer-invalid",
                                                  title: "Invalid operator answer",
                                                  detail: "The operator's answer is not signed correctly or belongs to"
                                                          + " another check.")
}
