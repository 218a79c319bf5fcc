import Foundation

/// What a provider adds to the application besides the ports it implements
/// (``MessageSender``, ``SilentAuthProvider``, ``SimSwapChecker``, ``SilentVerdictReader``):
/// routes of its own, and word of where the server listens. The composition root puts
/// mounts in the application's ``ProviderPorts/mounts``; the server knows no provider by name.
public protocol ProviderMount: Sendable {
    /// The routes to add to the application's router.
    func routes(in context: ProviderContext) -> [ProviderRoute]
    /// Called once the server listens, with the URL devices reach it at.
    func listening(at baseURL: String)
}

extension ProviderMount {
    /// Does nothing: most providers don't need to know.
    public func listening(at baseURL: String) {}
}
