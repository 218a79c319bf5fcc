import Foundation
import TacitCore
import TacitStore

extension VerificationRoutes {
    /// The start's options with the application's own defaults for the fields the body
    /// leaves out (`ApplicationDefaults`).
    func options(_ given: VerificationOptions, defaultsOf application: String,
                 body: [UInt8]) async throws -> VerificationOptions {
        guard let defaults = try await ApplicationDefaults.of(application, in: runner.applicationStore),
              let names = ApplicationDefaults.fieldNames(in: body) else { return given }
        return defaults.fill(given, given: names)
    }
}
