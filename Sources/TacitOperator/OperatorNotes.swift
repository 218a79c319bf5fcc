import TacitCore

/// The operator's timeline events, with notes that explain each hop.
enum OperatorNotes {
    /// The name every silent hop of the virtual operator carries on the timeline.
    static let provider = "virtual_operator"

    static func coverage(_ number: String, covered: Bool) -> EventDraft {
        EventDraft("silent_auth:coverage_checked", channel: .silentAuth, source: .operator,
                   outcome: covered ? .success : .failure,
                   note: covered
                       ? "The mobile operator of \(Redactor.phone(number)) supports silent authentication "
                           + "and opened a single-use check on its cellular gateway."
                       : "The mobile operator of \(Redactor.phone(number)) does not support silent authentication, "
                           + "so no check link was issued.",
                   data: ["phone_number": .phone(number), "covered": .bool(covered), "provider": .text(provider)])
    }

    static func carrierError(_ number: String) -> EventDraft {
        EventDraft("silent_auth:carrier_error", channel: .silentAuth, source: .operator, outcome: .failure,
                   note: "The mobile operator of \(Redactor.phone(number)) answered the coverage check "
                       + "with an internal error.",
                   data: ["phone_number": .phone(number), "provider": .text(provider)])
    }
}
