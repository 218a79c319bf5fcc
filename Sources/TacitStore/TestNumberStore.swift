import Foundation

/// Where applications' test numbers live, one per (application, number). Every call names
/// its application: one application never reads or changes another's.
public protocol TestNumberStore: Sendable {
    /// The application's test numbers, expired ones too, by number. Stores answer from a copy
    /// kept for a second (`KeptPerApplication`): every start reads them.
    func testNumbers(application: String) async throws -> [TestNumber]
    /// Adds the test number or replaces the one for its number; false when no application has its id.
    func setTestNumber(_ number: TestNumber) async throws -> Bool
    /// Removes the application's test number `phoneNumber`; false when it had none.
    func deleteTestNumber(application: String, phoneNumber: String) async throws -> Bool
}
