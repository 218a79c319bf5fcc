import Foundation
import TacitCore
import TacitStore

/// A stored history for the fraud backtest's tests: three hours of legitimate users in five
/// countries, nine in ten of them typing their code, one of them on a VoIP line, and from the
/// second hour an SMS pumping attack of distinct numbers inside `+44791113`, one every 20 seconds,
/// none converting but one (a real person inside the range). Every verification is finished.
public enum PumpingHistory {
    /// The attacked range, and the attack's size.
    public static let attackPrefix = "44791113"
    public static let attackStarts = 150
    /// The attack's start that converted.
    public static let convertingAttackStart = 120
    public static let legitimateStarts = 240
    /// The legitimate start on a VoIP line (it converted).
    public static let voipStart = 7
    static let countries = ["+447700", "+336120", "+14155", "+49151", "+3932"]

    /// The history, ending at `end`, for `application`, in creation order.
    public static func verifications(application: String, end: Date) -> [Verification] {
        let first = end.addingTimeInterval(-3 * 3_600)
        var made: [Verification] = []
        for index in 0..<legitimateStarts {
            let country = countries[index % countries.count]
            let digits = String(format: "%06d", (index * 7_919) % 1_000_000)
            made.append(verification("legit\(index)", country + digits, application: application,
                                     at: first.addingTimeInterval(Double(index) * 45),
                                     lineType: index == voipStart ? "voip" : "mobile",
                                     converts: (index / countries.count) % 10 != 9))
        }
        let attack = end.addingTimeInterval(-2 * 3_600)
        for index in 0..<attackStarts {
            made.append(verification("attack\(index)", "+" + attackPrefix + String(format: "%04d", index),
                                     application: application, at: attack.addingTimeInterval(Double(index) * 20),
                                     lineType: "mobile", converts: index == convertingAttackStart))
        }
        return made.sorted { $0.createdAt < $1.createdAt }
    }

    /// One finished SMS verification: its code sent a second after the start, typed 40 seconds
    /// later when it converts, else expired after the step's minute.
    public static func verification(_ id: String, _ number: String, application: String, at created: Date,
                                    lineType: String, converts: Bool) -> Verification {
        var verification = Verification(id: id, phoneNumber: number, options: VerificationOptions(workflow: [.sms]),
                                        clientTokenHash: [], createdAt: created,
                                        state: .finished(converts ? .completed : .expired))
        let ended = created.addingTimeInterval(converts ? 41 : 61)
        verification.workflow[0] = WorkflowStep(channel: .sms, status: converts ? .completed : .expired,
                                                startedAt: created.addingTimeInterval(1), endedAt: ended,
                                                endReason: converts ? nil : .timeout)
        verification.endedAt = ended
        verification.applicationId = application
        verification.lineType = lineType
        return verification
    }
}
