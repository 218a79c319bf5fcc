import Foundation
import TacitCore

/// The ports a composition root fills with providers before the server is built: the
/// server's dependencies are one. A provider that wires itself in (the development
/// providers) takes these, so it needs no server type.
public protocol ProviderPorts {
    /// The clock the server runs on; providers with timers of their own run on it too.
    var clock: any TacitClock { get }
    /// Delivers codes by SMS, voice or WhatsApp.
    var sender: any MessageSender { get set }
    /// Begins silent checks.
    var silentAuth: (any SilentAuthProvider)? { get set }
    /// Answers whether a SIM changed recently.
    var simSwap: (any SimSwapChecker)? { get set }
    /// Reads the silent-auth provider's verdict from the device's callback.
    var silentVerdicts: (any SilentVerdictReader)? { get set }
    /// Routes and listening hooks the providers bring.
    var mounts: [any ProviderMount] { get set }
    /// Signed status callbacks the providers verify and read.
    var callbacks: [any ProviderCallback] { get set }
}
