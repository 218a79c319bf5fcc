import Foundation
import TacitPhone
import TacitStore

/// Adds, lists and removes an application's test numbers (docs/fraud.md#test-numbers), for
/// `tacit apps test-numbers`. The fixed code is sealed with the server's keys before it is
/// stored, and is never shown again.
public struct TestNumberManager: Sendable {
    /// Why a test number was refused; the description names neither the number nor the code.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    let store: any TestNumberStore
    let seal: @Sendable ([UInt8]) throws -> [UInt8]

    /// nil when `store` keeps no test numbers.
    public init?(store: any VerificationStore, seal: @escaping @Sendable ([UInt8]) throws -> [UInt8]) {
        guard let store = store as? any TestNumberStore else { return nil }
        self.store = store
        self.seal = seal
    }

    /// Adds `number` with the fixed `code`, active until `expiresAt` (nil: for good); replaces
    /// the one the number had. Returns the number in E.164, or nil when no application has the id.
    public func add(application: String, number text: String, code: String, expiresAt: Date?,
                    now: Date) async throws -> String? {
        let number: PhoneNumber
        do {
            number = try PhoneNumberParser().parse(text, allowVirtualRange: true)
        } catch {
            throw Refusal(description: error.description)
        }
        if LineTypeRules.blocked.contains(number.lineType) {
            throw Refusal(description: "The phone number is \(number.lineType.phrase), which is never a test number.")
        }
        guard (4...10).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw Refusal(description: "The code must be 4 to 10 digits.")
        }
        if let expiresAt, expiresAt <= now { throw Refusal(description: "The expiry must be in the future.") }
        let test = TestNumber(applicationId: application, phoneNumber: number.e164,
                              sealedCode: try seal(Array(code.utf8)), expiresAt: expiresAt, createdAt: now)
        return try await store.setTestNumber(test) ? number.e164 : nil
    }

    /// The application's test numbers, expired ones too.
    public func list(application: String) async throws -> [TestNumber] {
        try await store.testNumbers(application: application)
    }

    /// Removes the application's test number; false when it had none. The number is read as
    /// `add` reads it, so any form of it matches.
    public func remove(application: String, number text: String) async throws -> Bool {
        let e164 = (try? PhoneNumberParser().parse(text, allowVirtualRange: true).e164) ?? text
        return try await store.deleteTestNumber(application: application, phoneNumber: e164)
    }

    /// Reads an expiry such as `30d`, `12h`, `90m` or `3600s` into seconds.
    public static func seconds(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let count = Int(text.dropLast()), count > 0 else { return nil }
        let scale: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        return scale[unit].map { TimeInterval(count) * $0 }
    }
}
