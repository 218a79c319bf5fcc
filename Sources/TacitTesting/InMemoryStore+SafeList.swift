import Foundation
import TacitStore

/// Applications' safe lists in memory, one per entry.
extension InMemoryStore: SafeListStore {
    public func safeList(application: String) async throws -> [SafeListEntry] {
        heldSafeList.withLock { held in
            held.filter { $0.applicationId == application }.sorted { $0.entry < $1.entry }
        }
    }

    public func addSafeListEntry(_ entry: SafeListEntry) async throws -> Bool {
        guard try await application(id: entry.applicationId) != nil else { return false }
        heldSafeList.withLock { held in
            if !held.contains(where: { $0.applicationId == entry.applicationId && $0.entry == entry.entry }) {
                held.append(entry)
            }
        }
        return true
    }

    public func removeSafeListEntry(application: String, entry: String) async throws -> Bool {
        heldSafeList.withLock { held in
            let before = held.count
            held.removeAll { $0.applicationId == application && $0.entry == entry }
            return held.count < before
        }
    }
}
