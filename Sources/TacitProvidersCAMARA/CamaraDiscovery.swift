import Foundation
import TacitCore

/// The issuer's metadata, fetched from `{issuer}/.well-known/openid-configuration` when
/// first needed and kept for an hour: endpoints move rarely, and a silent step should not
/// pay a discovery round trip. A failed fetch is not kept, so the next step tries again.
actor CamaraDiscovery {
    static let lifetime: TimeInterval = 3600

    private let issuer: String
    private let http: any OutboundHTTPClient
    private let clock: any TacitClock
    private var cached: (metadata: CamaraMetadata, until: Date)?

    init(issuer: String, http: any OutboundHTTPClient, clock: any TacitClock) {
        self.issuer = issuer
        self.http = http
        self.clock = clock
    }

    func metadata() async -> CamaraMetadata? {
        if let cached, cached.until > clock.now() { return cached.metadata }
        guard let url = URL(string: issuer + "/.well-known/openid-configuration"),
              let response = try? await http.send(CamaraWire.get(url)), response.status == 200,
              let body = CamaraWire.object(response), let metadata = CamaraMetadata(body, issuer: issuer) else {
            return nil
        }
        cached = (metadata, clock.now().addingTimeInterval(Self.lifetime))
        return metadata
    }
}
