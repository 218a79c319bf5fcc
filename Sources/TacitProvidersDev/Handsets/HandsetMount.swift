import Foundation
import TacitCore
import TacitHTTP
import TacitProviderKit

/// The virtual phones' dev tools, under `/v1/dev/handsets/{number}/`: what a handset's
/// screen shows (its inbox), and its "run silent auth" button; and the mail client beside
/// them, `/v1/dev/mailboxes/{address}/inbox`: in `--dev` no email leaves the server, so an
/// email step's code is read there (docs/api.md#the-dev-mailbox).
struct HandsetMount: ProviderMount {
    let inbox: HandsetInbox

    func routes(in context: ProviderContext) -> [ProviderRoute] {
        let inbox = self.inbox
        let silentCheck = DevSilentCheck(verification: context.verification, baseURL: context.baseURL,
                                         issuedBy: context.checkURLVerification)
        return [
            ProviderRoute("GET", "/v1/dev/handsets/:number/inbox", exposure: .devTool) { request in
                ProviderRoute.uncachedJSON(["messages": try await inbox.messages(for: try Self.number(of: request))])
            },
            ProviderRoute("POST", "/v1/dev/handsets/:number/silent-check", exposure: .devTool,
                          handler: silentCheck.run),
            ProviderRoute("GET", "/v1/dev/mailboxes/:address/inbox", exposure: .devTool) { request in
                ProviderRoute.uncachedJSON(["messages": try await inbox.messages(for: try Self.address(of: request))])
            },
        ]
    }

    /// The handset's number from the path, in E.164 form.
    static func number(of request: HTTPRequest) throws -> String {
        let number = request.pathParameters["number"] ?? ""
        guard number.hasPrefix("+"), number.dropFirst().allSatisfy(\.isNumber), (8...16).contains(number.count) else {
            throw ProviderProblem.invalidPhoneNumber("The handset number must be in E.164 form, like +99012345670.")
        }
        return number
    }

    /// The mailbox's address from the path, as email steps store it (its domain lowercased).
    static func address(of request: HTTPRequest) throws -> String {
        let address = request.pathParameters["address"] ?? ""
        if let reason = EmailAddress.problem(address) {
            throw ProviderProblem.invalidParameter("address", reason: reason)
        }
        return EmailAddress.normalized(address)
    }
}
