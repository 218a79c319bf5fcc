import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitPhone
import TacitStore

extension VerificationRoutes {
    /// OTP steps take exactly `code_length` digits; the silent step takes the code the
    /// network handed the device. A malformed code is refused before it can count as an attempt.
    func validate(code: String, for verification: Verification) throws(APIProblem) {
        let valid: Bool
        if verification.activeChannel == .silentAuth {
            valid = (8...128).contains(code.utf8.count) && code.isTokenText
        } else {
            valid = code.utf8.count == verification.codeLength && code.isASCIIDigits
        }
        guard valid else {
            let reason = verification.activeChannel == .silentAuth
                ? "must be the code returned by the check_url"
                : "must be \(verification.codeLength) digits"
            throw .invalid([InvalidParameter(name: "code", reason: reason)])
        }
    }

    /// The record a start with an `Idempotency-Key` makes, indexed under the key and the
    /// application together: another application's same key is another record, so it
    /// never replays this one's answer (with its client token) nor is refused as a reuse.
    func idempotencyRecord(for request: HTTPRequest, application: String) async throws -> IdempotencyRecord? {
        guard let key = request.header("idempotency-key") else { return nil }
        guard (1...255).contains(key.count) else {
            throw APIProblem.invalid([InvalidParameter(name: "Idempotency-Key", reason: "must be 1 to 255 characters")])
        }
        return IdempotencyRecord(key: try secrets.fieldProtection.index(Self.idempotencyName(key, application)),
                                 requestHash: SHA256.hash(Self.canonical(request.body)),
                                 status: 0, sealedBody: [], createdAt: runner.clock.now(), applicationId: application)
    }

    /// What an Idempotency-Key is indexed as. The default application keeps the form records
    /// had before applications, so those still replay after the migration.
    static func idempotencyName(_ key: String, _ application: String) -> String {
        application == Application.defaultID ? "idem:" + key : "idem:" + application + ":" + key
    }

    /// The body with keys sorted, so a repeat that serialises the same JSON differently is still a repeat.
    static func canonical(_ body: [UInt8]) -> [UInt8] {
        guard let value = try? JSONParser.parse(body) else { return body }
        return JSONText.encode(value)
    }

    /// The first response to this key, when the request repeats it exactly. A record made
    /// before a key rotation is found under the index an older key gave it.
    func replay(_ record: IdempotencyRecord, _ request: HTTPRequest) async throws -> HTTPResponse? {
        var found = try await store.idempotencyRecord(key: record.key)
        if found == nil, let key = request.header("idempotency-key") {
            for older in try secrets.fieldProtection.indexes(Self.idempotencyName(key, record.applicationId))
                .dropFirst() where found == nil {
                found = try await store.idempotencyRecord(key: older)
            }
        }
        guard let first = found else { return nil }
        guard ConstantTime.equals(first.requestHash, record.requestHash) else { throw APIProblem.idempotencyReused }
        guard first.status != 0, let body = try? secrets.fieldProtection.open(first.sealedBody) else {
            throw APIProblem(status: 409, type: "idempotency-in-progress", title: "Request in progress",
                             detail: "The first request with this Idempotency-Key is still being answered;"
                                     + " retry shortly.")
        }
        return .json(status: first.status, bytes: body, headers: [("Idempotent-Replayed", "true")])
    }
}
