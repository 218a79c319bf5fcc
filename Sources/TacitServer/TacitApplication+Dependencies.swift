import Foundation
import TacitCore
import TacitCrypto

extension TacitApplication {
    /// What a test or an embedding program may replace. The providers are ports only:
    /// the composition root (the `tacit` executable, a test harness) fills them, and
    /// with none the server sends nothing and silent steps fail over at once.
    public struct Dependencies: ProviderPorts, Sendable {
        public var clock: any TacitClock = SystemClock()
        public var codes: CodeGenerator = .secure
        /// Verification ids: `vf_`, then 48 bits of milliseconds and 80 random bits in URL-safe base64.
        public var ids = IDGenerator.timeOrdered(prefix: "vf_")
        /// Delivers codes by SMS, voice or WhatsApp.
        public var sender: any MessageSender = NoProviderSender()
        public var silentAuth: (any SilentAuthProvider)?
        public var simSwap: (any SimSwapChecker)?
        /// Reads the silent-auth provider's verdict from the device's callback.
        public var silentVerdicts: (any SilentVerdictReader)?
        /// Readers for the checks a given provider issued (a network API's), by the provider's
        /// route name; a check of any other provider goes to `silentVerdicts`.
        public var silentVerdictReaders: [String: any SilentVerdictReader] = [:]
        /// Asks a provider for its verdict on a silent check it issued and whose device
        /// ended at it (hosted silent-auth services), by the provider's route name.
        public var silentProviderChecks: [String: any SilentProviderCheck] = [:]
        /// The drop-in compatible APIs served beside `/v1` (docs/compatible-apis.md).
        public var faces: [any CompatibleFace] = []
        /// Routes and listening hooks the providers bring.
        public var mounts: [any ProviderMount] = []
        /// Signed status callbacks the providers verify and read, each at its own path.
        public var callbacks: [any ProviderCallback] = []
        /// Providers that read delivery receipts over a connection of their own (a long-lived socket): each
        /// runs beside the workers and feeds its receipts to the engine.
        public var receiptSources: [any ProviderReceiptSource] = []
        /// Where security warnings go (refused starts and sends, conversion drops).
        public var securityLog: SecurityLog = .standardError
        /// Every outbound HTTP call (webhooks) goes through it.
        public var httpClient: any OutboundHTTPClient = URLSessionHTTPClient()
        /// Jitter for webhook retries: a value in 0..<1 (fixed in tests).
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        public init() {}
    }
}
