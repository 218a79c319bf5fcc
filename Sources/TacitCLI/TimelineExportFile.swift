import Foundation
import TacitNetworking
import TacitCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TacitKit

/// The timeline export as bytes: fetched as the server wrote it (so a file keeps every
/// field, `exported_at` included), and read back for replay.
enum TimelineExportFile {
    static func fetch(_ id: String, base: URL) async throws -> Data {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        var request = URLRequest(url: base.appendingPathComponent("v1/verifications/\(escaped)/timeline"))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await URLSession.shared.cancellableData(for: request)
        } catch {
            throw TacitError(type: "network-error", title: "Network error", status: 0,
                             detail: "the server could not be reached")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw (try? JSONDecoder().decode(TacitError.self, from: data))
                ?? TacitError(type: "http-error", title: "HTTP \(status)", status: status)
        }
        return data
    }

    static func read(_ path: String) throws -> Timeline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        return try decoder.decode(Timeline.self, from: data)
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = fractional.date(from: text) ?? ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 time")
            }
            return date
        }
        return decoder
    }
}
