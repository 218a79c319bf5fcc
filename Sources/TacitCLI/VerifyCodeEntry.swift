import Foundation
import TacitKit

/// Gets a code to the server for the active channel: typed at the prompt (asked
/// again after a wrong one, with the attempts left), or, with `--auto-code`, read
/// from the dev handset inbox as the phone would show it.
struct VerifyCodeEntry: Sendable {
    enum Outcome: Sendable {
        /// The server took the code (or the step moved on): the flow says what next.
        case done
        /// Standard input ended before a code was accepted.
        case noInput
    }

    let client: TacitClient
    let options: VerifyOptions
    let display: VerifyDisplay
    let input: LineBuffer
    /// Inbox messages that predate this verification, so an old code is never used.
    let inboxBaseline: Int

    func run(_ requestId: String, channel: Channel) async -> Outcome {
        let via = channel == .sms ? "SMS" : channel == .voice ? "voice call" : "WhatsApp"
        while !Task.isCancelled {
            let code: String?
            if options.autoCode {
                code = await inboxCode(channel)
                if code != nil { display.line("  The \(via) code was read from the dev handset inbox.") }
            } else {
                display.prompt("Enter the code sent by \(via): ")
                code = await input.next()?.trimmingCharacters(in: .whitespaces)
            }
            guard let code else { return Task.isCancelled ? .done : .noInput }
            guard !code.isEmpty else { continue }
            do {
                _ = try await client.check(requestId, code: code)
                return .done
            } catch let error as TacitError where error.type == "invalid-code" {
                let left = error.attemptsRemaining.map { "\($0) attempt\($0 == 1 ? "" : "s") left" } ?? "try again"
                display.line(display.paint("  That code is not right: \(left).", "31"))
                if options.json { display.prompt("That code is not right: \(left).\n") }
                if options.autoCode || error.attemptsRemaining == 0 { return .done }
            } catch {
                // The step ended meanwhile (expired, moved on, cancelled): the flow shows what follows.
                return .done
            }
        }
        return .done
    }

    /// Polls the handset inbox until a message for `channel` arrives.
    private func inboxCode(_ channel: Channel) async -> String? {
        while !Task.isCancelled {
            if let messages = try? await client.handsetInbox(options.number),
               let message = messages.dropFirst(inboxBaseline).last(where: { $0.channel == channel }),
               let code = Self.code(in: message) {
                return code
            }
            do { try await Task.sleep(for: .milliseconds(200)) } catch { return nil }
        }
        return nil
    }

    /// The code in a message: a run of digits, or, for a voice call, the digits it spells out one by one.
    static func code(in message: HandsetMessage) -> String? {
        if let code = message.code { return code }
        guard let start = message.body.range(of: "is:")?.upperBound else { return nil }
        let spoken = message.body[start...].prefix { $0 != "." }.filter(\.isNumber)
        return (4...10).contains(spoken.count) ? String(spoken) : nil
    }
}
