import Foundation
import Testing
import TacitCore
import TacitProvidersDev
@testable import TacitServer
import TacitTesting

/// In `--dev` an email step's message lands in the dev mailbox of its address
/// (docs/api.md#the-dev-mailbox), where the code is read as a handset's is.
@Suite("Dev mode: the dev mailbox", .timeLimit(.minutes(1)))
struct DevMailboxTests {
    static func messages(_ client: TestClient, _ address: String) async throws -> [[String: Any]] {
        let reply = try await client.get("/v1/dev/mailboxes/\(address)/inbox")
        #expect(reply.status == 200, "\(reply.text)")
        return reply.json["messages"] as? [[String: Any]] ?? []
    }

    @Test("an sms step then an email step: the mailbox shows the localized subject and body with the code, and checking that code completes the verification",
)
    func emailAfterSMSGoesToTheMailbox() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let started = try await client.start("+99012345670", channels: [], extra: [
                "brand": "Acme", "locale": "de",
                "workflow": [["channel": "sms"], ["channel": "email", "to": "Person@Example.COM"]],
            ])
            try #require(started.reply.status == 202, "\(started.reply.text)")
            #expect(try await Self.messages(client, "person@example.com").isEmpty, "nothing before the email step")
            #expect(try await client.post("/v1/verifications/\(started.id)/next", json: [:]).status == 200)
            await client.sendApplied(started.id, step: 1)
            // The domain is matched as stored, whatever its case in the path.
            let mail = try await Self.messages(client, "Person@EXAMPLE.com")
            #expect(mail.count == 1)
            let message = try #require(mail.first)
            #expect(message["channel"] as? String == "email")
            #expect(message["subject"] as? String == "Ihr Acme-Code")
            let body = try #require(message["body"] as? String)
            #expect(body.contains("Geben Sie ihn an niemanden weiter"), "\(body)")
            let code = try #require(body.split(whereSeparator: { !$0.isNumber }).last.map(String.init))
            #expect(code.count >= 4)
            #expect(try await client.inboxCodes("+99012345670").count == 1, "the handset got the SMS only")
            #expect(app.sender.count == 0, "no email left the server")
            let checked = try await client.post("/v1/verifications/\(started.id)/check", json: ["code": code])
            #expect(checked.status == 200)
            #expect(checked.string("status") == "completed", "\(checked.text)")
        }
    }

    @Test("an email step first: the code is in the mailbox, not sent out, and nothing reaches the handset")
    func emailFirstGoesToTheMailbox() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let started = try await client.start("+99012345671", channels: [], extra: [
                "workflow": [["channel": "email", "to": "first@example.org"], ["channel": "sms"]],
            ])
            try #require(started.reply.status == 202, "\(started.reply.text)")
            await client.sendApplied(started.id)
            let mail = try await Self.messages(client, "first@example.org")
            let body = try #require(mail.first?["body"] as? String)
            let code = try #require(body.split(whereSeparator: { !$0.isNumber }).last.map(String.init))
            #expect(app.sender.count == 0)
            #expect(try await client.inboxCodes("+99012345671").isEmpty)
            let checked = try await client.post("/v1/verifications/\(started.id)/check", json: ["code": code])
            #expect(checked.string("status") == "completed", "\(checked.text)")
        }
    }

    @Test("a mailbox path that is not an address is 422 naming address")
    func malformedAddressIsRefused() async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let reply = try await client.get("/v1/dev/mailboxes/not-an-address/inbox")
            #expect(reply.status == 422)
            #expect(reply.text.contains("address"))
        }
    }

    @Test("kept in a shared store, a mailbox message keeps its subject apart from its body; a handset's has none")
    func subjectSurvivesTheStore() async throws {
        let inbox = HandsetInbox(clock: ManualClock(), store: InMemoryStore())
        var email = OutboundMessage(channel: .email, to: "a@example.com", body: "Line one\nCode 1234",
                                    verificationId: "v")
        email.subject = "Your Acme code"
        #expect(await inbox.send(email) == .accepted)
        #expect(await inbox.send(OutboundMessage(channel: .sms, to: "+99012345670", body: "Code 5678",
                                                 verificationId: "v")) == .accepted)
        let mail = try await inbox.messages(for: "a@example.com")
        #expect(mail.map(\.subject) == ["Your Acme code"])
        #expect(mail.map(\.body) == ["Line one\nCode 1234"])
        let sms = try await inbox.messages(for: "+99012345670")
        #expect(sms.map(\.subject) == [nil])
        #expect(sms.map(\.body) == ["Code 5678"])
    }
}
