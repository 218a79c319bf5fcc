import TacitCore
import TacitHTTP
import TacitStore

/// An application's own start defaults (`tacit apps set --brand`, `--code-length`,
/// `--channel-timeout`), one rule for every face: a field the start gives wins, one it
/// leaves out takes the application's setting, and without a setting the face's own
/// default stays. The settings are read on each start, from the copy the store keeps for
/// a second (`KeptPerApplication`), so `tacit apps set` reaches a running server
/// within that second.
public struct ApplicationDefaults {
    let settings: ApplicationSettings

    /// The defaults `application` set, or nil when it set none (or the store keeps no applications).
    public static func of(_ application: String,
                          in applications: (any ApplicationStore)?) async throws -> ApplicationDefaults? {
        guard let applications, let settings = try await applications.applicationSettings(id: application),
              settings.brand != nil || settings.codeLength != nil || settings.channelTimeout != nil else { return nil }
        return ApplicationDefaults(settings: settings)
    }

    /// The top-level field names of a JSON start body, nil when it isn't an object.
    public static func fieldNames(in body: [UInt8]) -> Set<String>? {
        guard case .object(let fields)? = try? JSONParser.parse(body) else { return nil }
        return Set(fields.keys)
    }

    /// `options` with these defaults in every field `given` doesn't name. The names are
    /// the JSON ones `/v1` and the faces with JSON bodies share: `brand`, `code_length`, `channel_timeout`.
    public func fill(_ options: VerificationOptions, given: Set<String> = []) -> VerificationOptions {
        var filled = options
        if !given.contains("brand"), let brand = settings.brand { filled.brand = brand }
        if !given.contains("code_length"), let length = settings.codeLength { filled.codeLength = length }
        if !given.contains("channel_timeout"), let timeout = settings.channelTimeout { filled.channelTimeout = timeout }
        return filled
    }
}
