import Foundation
import TacitHTTP

/// A CAMARA error answer: `{"status", "code", "message"}`, as every CAMARA API returns.
struct CamaraError: Error, Sendable, Equatable {
    var status: Int
    var code: String
    var message: String

    static func invalidArgument(_ message: String) -> CamaraError {
        CamaraError(status: 400, code: "INVALID_ARGUMENT", message: message)
    }
    static func outOfRange(_ message: String) -> CamaraError {
        CamaraError(status: 400, code: "OUT_OF_RANGE", message: message)
    }
    static let unauthenticated = CamaraError(
        status: 401, code: "UNAUTHENTICATED",
        message: "Request not authenticated due to missing, invalid, or expired credentials.")
    static let permissionDenied = CamaraError(
        status: 403, code: "PERMISSION_DENIED",
        message: "Client does not have sufficient permissions to perform this action.")
    static let notNetworkAuthenticated = CamaraError(
        status: 403, code: "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK",
        message: "Client must authenticate via the mobile network to use this service.")
    static let identifierNotFound = CamaraError(status: 404, code: "IDENTIFIER_NOT_FOUND",
                                                message: "Device identifier not found.")
    static let serviceNotApplicable = CamaraError(status: 422, code: "SERVICE_NOT_APPLICABLE",
                                                  message: "The service is not available for the provided identifier.")
    static let missingIdentifier = CamaraError(status: 422, code: "MISSING_IDENTIFIER",
                                               message: "The device cannot be identified.")
    static let unavailable = CamaraError(status: 503, code: "UNAVAILABLE", message: "Service unavailable.")
    static let unnecessaryIdentifier = CamaraError(status: 422, code: "UNNECESSARY_IDENTIFIER",
                                                   message: "The device is already identified by the access token.")

    func response(correlator: String?) -> HTTPResponse {
        CamaraJSON.response(status: status,
                            ["status": .int(status), "code": .string(code), "message": .string(message)],
                            correlator: correlator)
    }
}

/// The few JSON shapes the CAMARA routes answer with.
enum CamaraJSON {
    enum Value: Encodable {
        case int(Int), string(String), bool(Bool), null
        /// A list of names, as discovery metadata gives its supported values.
        case strings([String])

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .strings(let values): try container.encode(values)
            case .null: try container.encodeNil()
            }
        }
    }

    static func response(status: Int = 200, _ body: [String: Value], correlator: String?) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? Array(encoder.encode(body))) ?? Array("{}".utf8)
        return .json(status: status, bytes: bytes, headers: correlator.map { [("x-correlator", $0)] } ?? [])
    }
}
