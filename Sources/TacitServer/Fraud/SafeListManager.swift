import Foundation
import TacitPhone
import TacitStore

/// Adds, lists and removes an application's safe list (docs/fraud.md#safe-list-and-risk_check),
/// for `tacit apps safe-list`: numbers, and prefixes written with a trailing star, whose starts
/// skip the automatic rules.
public struct SafeListManager: Sendable {
    /// Why an entry was refused.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    let store: any SafeListStore

    /// nil when `store` keeps no safe lists.
    public init?(store: any VerificationStore) {
        guard let store = store as? any SafeListStore else { return nil }
        self.store = store
    }

    /// Adds `text` to the application's safe list; returns the entry as stored (a number in
    /// E.164, a prefix as `+digits*`), or nil when no application has the id.
    public func add(application: String, entry text: String, now: Date) async throws -> String? {
        let entry = try Self.entry(text)
        return try await store.addSafeListEntry(SafeListEntry(applicationId: application, entry: entry,
                                                              createdAt: now)) ? entry : nil
    }

    /// The application's safe list.
    public func list(application: String) async throws -> [SafeListEntry] {
        try await store.safeList(application: application)
    }

    /// Removes the entry, read as `add` reads it; false when the application had none.
    public func remove(application: String, entry text: String) async throws -> Bool {
        try await store.removeSafeListEntry(application: application, entry: (try? Self.entry(text)) ?? text)
    }

    /// A prefix is `+` then 1 to 14 digits then `*`, so a number typed short never safe-lists a
    /// range by mistake; anything else must read as a number, as a start reads it.
    static func entry(_ text: String) throws -> String {
        if text.hasSuffix("*") {
            let digits = text.dropFirst().dropLast()
            guard text.hasPrefix("+"), (1...14).contains(digits.count), digits.allSatisfy(\.isASCII),
                  digits.allSatisfy(\.isNumber) else {
                throw Refusal(description: "A prefix is + then 1 to 14 digits then * (+4477*).")
            }
            return text
        }
        do {
            return try PhoneNumberParser().parse(text, allowVirtualRange: true).e164
        } catch {
            throw Refusal(description: "\(error.description) A prefix ends with * (+4477*).")
        }
    }
}
