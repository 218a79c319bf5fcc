import TacitKit

/// The channel tracker line: each workflow step with its state, in order, e.g.
/// `SILENT AUTH ✗  ›  SMS ●  ›  VOICE ·`.
enum VerifyTracker {
    static func render(_ steps: [Verification.Step], color: Bool) -> String {
        let parts = steps.map { step -> String in
            let (mark, code) = symbol(step.status)
            let text = "\(title(step.channel)) \(mark)"
            return color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }
        return "  " + parts.joined(separator: "  ›  ")
    }

    static func title(_ channel: Channel) -> String {
        switch channel {
        case .silentAuth: "SILENT AUTH"
        case .sms: "SMS"
        case .voice: "VOICE"
        case .whatsapp: "WHATSAPP"
        case .email: "EMAIL"
        }
    }

    /// The mark and its ANSI colour: active bold yellow, done green, failed red, unused dim.
    static func symbol(_ status: StepStatus) -> (String, String) {
        switch status {
        case .active: ("●", "1;33")
        case .completed: ("✓", "32")
        case .failed, .expired, .rejected: ("✗", "31")
        case .unused: ("·", "2")
        }
    }
}
