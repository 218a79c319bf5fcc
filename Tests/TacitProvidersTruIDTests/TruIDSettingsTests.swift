import Foundation
import Testing
import TacitServer
@testable import TacitProvidersTruID

@Suite("tru.ID's settings")
struct TruIDSettingsTests {
    @Test("no tru.ID setting means no tru.ID")
    func absent() throws {
        #expect(try TruIDSettings(ProviderSettings([:])) == nil)
    }

    @Test("the EU endpoint is the default and a trailing slash is dropped")
    func defaults() throws {
        let set = try #require(try TruIDSettings(ProviderSettings(["TACIT_TRUID_CLIENT_ID": "id", "TACIT_TRUID_CLIENT_SECRET": "s"])))
        #expect(set.url == "https://eu.api.tru.id")
        let us = try #require(try TruIDSettings(ProviderSettings(["TACIT_TRUID_CLIENT_ID": "id", "TACIT_TRUID_CLIENT_SECRET": "s",
                                                                  "TACIT_TRUID_URL": "https://us.api.tru.id/"])))
        #expect(us.url == "https://us.api.tru.id")
    }

    @Test("a half-configured tru.ID names the missing setting and never a value", arguments: [
        (["TACIT_TRUID_CLIENT_ID": "the-id"], "TACIT_TRUID_CLIENT_SECRET"),
        (["TACIT_TRUID_CLIENT_SECRET": "hunter22"], "TACIT_TRUID_CLIENT_ID"),
        (["TACIT_TRUID_CLIENT_ID": "the-id", "TACIT_TRUID_CLIENT_SECRET": "hunter22", "TACIT_TRUID_URL": "ftp://x"], "TACIT_TRUID_URL"),
    ])
    func refused(values: [String: String], setting: String) {
        do {
            _ = try TruIDSettings(ProviderSettings(values))
            Issue.record("accepted")
        } catch {
            #expect(error.setting == setting)
            #expect(!error.description.contains("hunter22") && !error.description.contains("the-id"))
        }
    }
}
