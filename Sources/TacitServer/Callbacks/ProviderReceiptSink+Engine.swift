import Foundation
import TacitStore

extension ProviderReceiptSink {
    /// The engine's sink: the callback routes' `apply`, which needs no provider's callback; a
    /// receipt's network reaches `ledger` as a callback's does.
    init(runner: WorkflowRunner, store: any VerificationStore, ledger: PrefixLedger? = nil) {
        let routes = CallbackRoutes(runner: runner, store: store, callbacks: [], baseURL: { "" }, ledger: ledger)
        self.init { receipt in try? await routes.apply(receipt.report) }
    }
}
