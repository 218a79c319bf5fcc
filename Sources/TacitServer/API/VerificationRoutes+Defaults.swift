import Foundation
import TacitCore
import TacitStore

extension VerificationRoutes {
    /// The start's options with the application's own defaults (brand, code length,
    /// channel timeout) for the fields the body leaves out; a field the body gives wins.
    /// The settings are read on each start, so `tacit apps set` reaches a running server.
    func options(_ given: VerificationOptions, defaultsOf application: String, body: [UInt8]) async throws -> VerificationOptions {
        guard let applications = store as? any ApplicationStore,
              let settings = try await applications.application(id: application)?.settings,
              settings.brand != nil || settings.codeLength != nil || settings.channelTimeout != nil,
              case .object(let fields)? = try? JSONParser.parse(body) else { return given }
        var options = given
        if fields["brand"] == nil, let brand = settings.brand { options.brand = brand }
        if fields["code_length"] == nil, let length = settings.codeLength { options.codeLength = length }
        if fields["channel_timeout"] == nil, let timeout = settings.channelTimeout { options.channelTimeout = timeout }
        return options
    }
}
