import Foundation
import TacitCore
import TacitStore

/// What `tacit apps set` changes: each field given replaces the stored one; nil keeps it.
/// The faces' settings go by the option that names them (`FaceSetting.option`).
public struct ApplicationChange: Sendable, Equatable {
    public var brand: String?
    public var codeLength: Int?
    public var channelTimeout: Int?
    /// The SMS Retriever hash and origin-bound domain its SMS end with (docs/locales.md#autofill);
    /// an empty text removes the stored one.
    public var smsAppHash: String?
    public var smsOrigin: String?
    /// Its fraud protection level by name: `off`, `basic`, `standard` or `max` (docs/fraud.md#protection-levels).
    public var fraudLevel: String?
    /// The faces' settings by option (without dashes), in clear here; a secret is sealed
    /// before the store sees it.
    public var faceSettings: [String: String] = [:]

    public init() {}

    /// Whether the change needs the key ring: it sets a secret one of `faces` keeps sealed.
    public func needsSealing(_ faces: [any CompatibleFace]) -> Bool {
        faces.flatMap(\.settings).contains { $0.kind == .sealedSecret && faceSettings[$0.option] != nil }
    }

    /// `settings` with this change applied, or the failure naming the first bad field
    /// (the same limits a start request has).
    func applied(to settings: ApplicationSettings) throws -> ApplicationSettings {
        var options = VerificationOptions()
        if let brand { options.brand = brand }
        if let codeLength { options.codeLength = codeLength }
        if let channelTimeout { options.channelTimeout = channelTimeout }
        if let problem = options.problems().first {
            let option = problem.name.replacingOccurrences(of: "_", with: "-")
            throw ApplicationManager.Failure(code: "invalid_setting", description: "--\(option) \(problem.reason)")
        }
        if let smsAppHash, !smsAppHash.isEmpty, !SMSAutofill.isAppHash(smsAppHash) {
            throw ApplicationManager.Failure(code: "invalid_setting",
                                             description: "--sms-app-hash \(SMSAutofill.appHashRule)")
        }
        if let smsOrigin, !smsOrigin.isEmpty, !SMSAutofill.isOrigin(smsOrigin) {
            throw ApplicationManager.Failure(code: "invalid_setting",
                                             description: "--sms-origin \(SMSAutofill.originRule)")
        }
        var updated = settings
        if let fraudLevel {
            guard let level = FraudLevel(rawValue: fraudLevel) else {
                throw ApplicationManager.Failure(code: "invalid_setting",
                                                 description: "--fraud-level must be off, basic, standard or max")
            }
            updated.fraudLevel = level
        }
        if let smsAppHash { updated.smsAppHash = smsAppHash.isEmpty ? nil : smsAppHash }
        if let smsOrigin { updated.smsOrigin = smsOrigin.isEmpty ? nil : smsOrigin.lowercased() }
        if let brand { updated.brand = brand }
        if let codeLength { updated.codeLength = codeLength }
        if let channelTimeout { updated.channelTimeout = channelTimeout }
        return updated
    }

    /// The faces' records this change sets, each checked by its face (never echoing the
    /// value) and a secret sealed by `seal`. An option no face offers is refused.
    func faceRecords(_ faces: [any CompatibleFace], seal: ([UInt8]) throws -> [UInt8]) throws -> [FaceCredential] {
        let offered = faces.flatMap { face in face.settings.map { (face.name, $0) } }
        var records: [FaceCredential] = []
        for (option, value) in faceSettings.sorted(by: { $0.key < $1.key }) {
            guard let (face, setting) = offered.first(where: { $0.1.option == option }) else {
                throw ApplicationManager.Failure(code: "invalid_setting", description: "--\(option) is not a setting")
            }
            if let problem = setting.problem(value) {
                throw ApplicationManager.Failure(code: "invalid_setting", description: "--\(option) \(problem)")
            }
            records.append(setting.kind == .sealedSecret
                ? FaceCredential(face: face, name: setting.name, kind: .sealedSecret,
                                 bytes: try seal(Array(value.utf8)))
                : FaceCredential(face: face, name: setting.name, kind: setting.kind, text: value))
        }
        return records
    }
}
