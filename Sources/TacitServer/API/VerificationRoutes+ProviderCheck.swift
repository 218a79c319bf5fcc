import Foundation
import TacitCore
import TacitHTTP

extension VerificationRoutes {
    /// `POST /v1/verifications/{id}/check` on a silent step that ends at its provider: the
    /// code, if the provider handed the device one, goes to the provider that issued the
    /// check, and the provider's verdict decides. Anything but a match fails the step and
    /// the workflow moves on, as a no-match from the operator does; a code the provider
    /// refused is answered as any wrong code, with the attempts left.
    func completeAtProvider(_ id: String, check: SilentCheckReference, code: String?) async throws -> CheckAnswer {
        if let code {
            // Providers' silent codes are as short as 4 letters and digits.
            guard (4...128).contains(code.utf8.count), code.isTokenText else {
                throw APIProblem.invalid([InvalidParameter(name: "code",
                                                           reason: "must be the code returned by the check_url")])
            }
        }
        let event = Self.checkEvent(.silentAuth, code: code)
        let result = try await runner.completeAtProvider(id, check: check, deviceCode: code,
                                                         provider: providerChecks(check.provider), events: [event])
        switch result {
        case nil: throw APIProblem.notFound
        case .completed?:
            return CheckAnswer(response: Self.response(to: .completed, id: id), result: .completed)
        case .inactive?: throw APIProblem.checkURLInactive
        case .blocked?: throw APIProblem.notPending(.failed)
        case .failed(let failure)?: throw Self.problem(for: failure)
        case .wrongCode(let counted)?: return CheckAnswer(response: Self.response(to: counted, id: id), result: counted)
        }
    }

    private static func problem(for failure: SilentFailure) -> APIProblem {
        switch failure {
        case .rejected: .simMismatch
        case .deviceNotCellular: .deviceNotCellular
        case .replayed: .checkURLUsed
        case .expired: .checkURLExpired
        default: .silentProviderUnavailable
        }
    }
}

extension APIProblem {
    static let silentProviderUnavailable = APIProblem(
        status: 409, type: "silent-provider-unavailable", title: "Silent provider gave no verdict",
        detail: "The silent-auth provider did not answer about its check, so the verification moved on to its next"
                + " step.")
}
