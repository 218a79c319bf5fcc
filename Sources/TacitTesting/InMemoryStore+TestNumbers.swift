import Foundation
import TacitStore

/// Applications' test numbers in memory, one per number.
extension InMemoryStore: TestNumberStore {
    public func testNumbers(application: String) async throws -> [TestNumber] {
        heldTestNumbers.withLock { held in
            held.filter { $0.applicationId == application }.sorted { $0.phoneNumber < $1.phoneNumber }
        }
    }

    public func setTestNumber(_ number: TestNumber) async throws -> Bool {
        guard try await application(id: number.applicationId) != nil else { return false }
        heldTestNumbers.withLock { held in
            held.removeAll { $0.applicationId == number.applicationId && $0.phoneNumber == number.phoneNumber }
            held.append(number)
        }
        return true
    }

    public func deleteTestNumber(application: String, phoneNumber: String) async throws -> Bool {
        heldTestNumbers.withLock { held in
            let before = held.count
            held.removeAll { $0.applicationId == application && $0.phoneNumber == phoneNumber }
            return held.count < before
        }
    }
}
