import Foundation
import TacitKit

/// The `liveTLS` mode's HTTPS: TacitKit's socket transport trusting the test CA, since
/// FoundationNetworking's URLSession can't be told to trust one CA for one session.
/// One connection per request (`Connection: close`), which is what the tests need.
enum LiveTLSTransport {
    static let transport = SocketCellularTransport(extraTrust: [.pem(TestCertificates.shared.authorityPEM)])

    static func send(_ method: String, url: String, body: Data?,
                     headers: [String: String]) async throws -> TestResponse {
        guard let target = URL(string: url) else { throw URLError(.badURL) }
        let request = CellularRequest(method: method, url: target, headers: headers, body: body, timeout: .seconds(20))
        let response = try await transport.send(request)
        return TestResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
