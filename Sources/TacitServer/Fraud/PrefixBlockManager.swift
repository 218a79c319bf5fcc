import Foundation
import TacitCore
import TacitStore

/// Lists and lifts an application's automatic prefix blocks (docs/fraud.md#prefix-blocks), for
/// `tacit fraud blocks` and `/v1/fraud/blocks`.
public struct PrefixBlockManager: Sendable {
    /// Why a prefix was refused.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    let store: any PrefixLedgerStore
    let clock: any TacitClock
    /// The running server's ledger, told at once of a lift; nil in a command.
    let ledger: PrefixLedger?

    init(store: any PrefixLedgerStore, clock: any TacitClock, ledger: PrefixLedger?) {
        self.store = store
        self.clock = clock
        self.ledger = ledger
    }

    /// nil when `store` keeps no prefix blocks.
    public init?(store: any VerificationStore, clock: any TacitClock = SystemClock()) {
        guard let store = store as? any PrefixLedgerStore else { return nil }
        self.init(store: store, clock: clock, ledger: nil)
    }

    /// The application's blocks in force, by prefix.
    public func list(application: String) async throws -> [PrefixBlock] {
        let now = clock.now()
        return try await store.prefixBlocks(application: application).filter { $0.isActive(at: now) }
    }

    /// Lifts the application's block of `prefix` (`+44770090`, `44770090` or `+44770090*`, or a
    /// mobile network's `net:23410`): its
    /// starts are let through, the rule leaves it alone for the window, and its next block
    /// lasts an hour again. False when the prefix was not blocked.
    public func unblock(application: String, prefix text: String) async throws -> Bool {
        let prefix = try Self.prefix(text)
        let now = clock.now()
        let pardon = now.addingTimeInterval(PrefixLedger.bucketLength * Double(PrefixLedger.windowBuckets))
        guard try await store.unblockPrefix(application: application, prefix: prefix, now: now,
                                            pardonUntil: pardon) else { return false }
        await ledger?.lifted(prefix, application: application, pardonUntil: pardon)
        return true
    }

    /// The prefix's digits: 4 to 8 of them, with or without `+` before and `*` after; or a mobile
    /// network's key, `net:` and its 5 or 6 digits.
    static func prefix(_ text: String) throws -> String {
        if PrefixLedger.isNetwork(text) {
            guard MobileNetwork.code(String(text.dropFirst(PrefixLedger.networkMark.count))) != nil else {
                throw Refusal(description: "A mobile network is net: and its MCC and MNC, 5 or 6 digits (net:23410).")
            }
            return text
        }
        var digits = Substring(text)
        if digits.hasPrefix("+") { digits = digits.dropFirst() }
        if digits.hasSuffix("*") { digits = digits.dropLast() }
        guard PrefixLedger.depths.contains(digits.count), digits.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw Refusal(description: "A prefix is 4 to 8 digits, the country code first (+44770090), or a mobile"
                              + " network's net: and 5 or 6 digits (net:23410).")
        }
        return String(digits)
    }
}

extension PrefixBlock {
    /// The block's prefix as `tacit fraud blocks` and `/v1/fraud/blocks` show it and take it
    /// back: `+44770090`, or a mobile network's `net:23410` as it is.
    public var shownPrefix: String { PrefixLedger.isNetwork(prefix) ? prefix : "+" + prefix }
}
