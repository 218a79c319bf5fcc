import Foundation

/// Where applications' safe lists live, one row per (application, entry). Every call names
/// its application: one application never reads or changes another's.
public protocol SafeListStore: Sendable {
    /// The application's safe list, by entry. Stores answer from a copy kept for a second
    /// (`KeptPerApplication`): every start reads it.
    func safeList(application: String) async throws -> [SafeListEntry]
    /// Adds the entry (an entry it already has stays as it is); false when no application has its id.
    func addSafeListEntry(_ entry: SafeListEntry) async throws -> Bool
    /// Removes the application's `entry`; false when it had none.
    func removeSafeListEntry(application: String, entry: String) async throws -> Bool
}
