import TacitStore

/// A column the `applications` table had for a drop-in face before the faces kept their
/// own records, and the `FaceCredential` it became: what `faces_001_face_credentials` moves.
/// Only that migration reads it.
struct LegacyFaceColumn: Sendable {
    let column: String
    let face: String
    let name: String
    let kind: FaceCredential.Kind

    /// Every such column, as the first applications migration made them.
    static let all: [LegacyFaceColumn] = [
        ("vonage_application_id", "application_id", .identifier), ("vonage_api_key", "api_key", .identifier),
        ("vonage_api_secret_hash", "api_secret", .secretHash), ("vonage_callback_url", "callback_url", .setting),
        ("vonage_signature_secret", "signature_secret", .sealedSecret), ("vonage_public_key", "public_key", .setting),
        ("twilio_account_sid", "account_sid", .identifier), ("twilio_auth_token_hash", "auth_token", .secretHash),
        ("twilio_service_sid", "service_sid", .identifier),
    ].map { column, name, kind in
        LegacyFaceColumn(column: column, face: String(column.prefix { $0 != "_" }), name: name, kind: kind)
    }
}
