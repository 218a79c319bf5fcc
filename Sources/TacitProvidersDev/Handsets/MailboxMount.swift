import Foundation
import TacitCore
import TacitHTTP
import TacitProviderKit

/// `GET /v1/dev/mailboxes/{address}/inbox` (dev only): what an email step sent to an
/// address, as a mail client would list it. In `--dev` no email leaves the server, so
/// this is where its codes are read (docs/api.md#the-dev-mailbox).
struct MailboxMount: ProviderMount {
    let inbox: HandsetInbox

    func routes(in context: ProviderContext) -> [ProviderRoute] {
        let inbox = self.inbox
        return [
            ProviderRoute("GET", "/v1/dev/mailboxes/:address/inbox", exposure: .devTool) { request in
                ProviderRoute.uncachedJSON(["messages": try await inbox.messages(for: try Self.address(of: request))])
            },
        ]
    }

    /// The mailbox's address from the path, as email steps store it (its domain lowercased).
    static func address(of request: HTTPRequest) throws -> String {
        let address = request.pathParameters["address"] ?? ""
        if let reason = EmailAddress.problem(address) { throw ProviderProblem.invalidParameter("address", reason: reason) }
        return EmailAddress.normalized(address)
    }
}
