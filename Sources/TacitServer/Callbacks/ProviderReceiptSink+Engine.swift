import Foundation
import TacitStore

extension ProviderReceiptSink {
    /// The engine's sink: the callback routes' `apply`, which needs no provider's callback.
    init(runner: WorkflowRunner, store: any VerificationStore) {
        let routes = CallbackRoutes(runner: runner, store: store, callbacks: [], baseURL: { "" })
        self.init { receipt in try? await routes.apply(receipt.report) }
    }
}
