import Foundation
import Testing
import TacitKit

/// The gateway's redirect target is fixed when the check opens: the callback the
/// caller registered, compared as a string with whatever the link names.
@Suite("The operator's gateway answers only to the registered callback")
struct GatewayRedirectTests {
    static let registered = "http://127.0.0.1:8080/v1/silent/callback"

    static func fetch(_ url: String, redirect: String?) async throws -> CellularResponse {
        var components = URLComponents(string: url)!
        components.queryItems = (redirect.map { [URLQueryItem(name: "redirect_uri", value: $0)] } ?? []) + [URLQueryItem(name: "state", value: "s")]
        return try await OperatorCamaraTests.cellular.send(CellularRequest(url: components.url!))
    }

    @Test("a link naming another callback is refused with 400 and no Location, and does not spend the check")
    func otherCallback() async throws {
        try await OperatorCamaraTests.withGatewayURL(callback: Self.registered) { url in
            for other in ["http://127.0.0.1:9/steal", Self.registered + "?x=1", "http://127.0.0.1:8080/v1/silent/callback/", "HTTP://127.0.0.1:8080/v1/silent/callback"] {
                let refused = try await Self.fetch(url, redirect: other)
                #expect(refused.status == 400, "\(other)")
                #expect(refused.header("location") == nil)
                #expect(String(decoding: refused.body, as: UTF8.self).contains("invalid-redirect-uri"))
            }
            let honest = try await Self.fetch(url, redirect: Self.registered)
            #expect(honest.header("location")?.hasPrefix(Self.registered + "?result=match&") == true)
        }
    }

    @Test("a link naming no redirect_uri is sent to the registered callback")
    func noneNamed() async throws {
        try await OperatorCamaraTests.withGatewayURL(callback: Self.registered) { url in
            let answer = try await Self.fetch(url, redirect: nil)
            #expect(answer.status == 302)
            #expect(answer.header("location")?.hasPrefix(Self.registered + "?result=match&") == true)
        }
    }

    @Test("a check opened without a callback answers no one")
    func unregistered() async throws {
        try await OperatorCamaraTests.withGatewayURL(callback: nil) { url in
            for redirect in [nil, Self.registered] {
                let answer = try await Self.fetch(url, redirect: redirect)
                #expect(answer.status == 400)
                #expect(answer.header("location") == nil)
            }
        }
    }
}
