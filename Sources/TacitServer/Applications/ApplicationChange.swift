import Foundation
import TacitCore
import TacitStore

/// What `tacit apps set` changes: each field given replaces the stored one; nil keeps it.
public struct ApplicationChange: Sendable, Equatable {
    public var brand: String?
    public var codeLength: Int?
    public var channelTimeout: Int?
    public var vonageCallbackURL: String?
    /// In clear here; sealed before the store sees it.
    public var vonageSignatureSecret: String?
    public var vonagePublicKeyPEM: String?

    public init() {}

    /// Whether the change needs the key ring (only a signature secret is sealed).
    public var needsSealing: Bool { vonageSignatureSecret != nil }

    /// `settings` with this change applied, or the failure naming the first bad field
    /// (the same limits a start request has). Never echoes the secret.
    func applied(to settings: ApplicationSettings, seal: ([UInt8]) throws -> [UInt8]) throws -> ApplicationSettings {
        var options = VerificationOptions()
        if let brand { options.brand = brand }
        if let codeLength { options.codeLength = codeLength }
        if let channelTimeout { options.channelTimeout = channelTimeout }
        if let problem = options.problems().first {
            throw ApplicationManager.Failure(code: "invalid_setting", description: "--\(problem.name.replacingOccurrences(of: "_", with: "-")) \(problem.reason)")
        }
        if let url = vonageCallbackURL, !Self.isHTTPURL(url) {
            throw ApplicationManager.Failure(code: "invalid_setting", description: "--vonage-callback-url must be an http or https URL")
        }
        if let secret = vonageSignatureSecret, !(32...256).contains(secret.utf8.count) {
            throw ApplicationManager.Failure(code: "invalid_setting", description: "--vonage-signature-secret must be 32 to 256 bytes")
        }
        if let pem = vonagePublicKeyPEM { try ApplicationManager.checkPublicKey(pem) }
        var updated = settings
        if let brand { updated.brand = brand }
        if let codeLength { updated.codeLength = codeLength }
        if let channelTimeout { updated.channelTimeout = channelTimeout }
        if let vonageCallbackURL { updated.vonageCallbackURL = vonageCallbackURL }
        if let vonageSignatureSecret { updated.vonageSignatureSecretSealed = try seal(Array(vonageSignatureSecret.utf8)) }
        if let vonagePublicKeyPEM { updated.vonagePublicKeyPEM = vonagePublicKeyPEM }
        return updated
    }

    private static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else { return false }
        return scheme == "http" || scheme == "https"
    }
}
