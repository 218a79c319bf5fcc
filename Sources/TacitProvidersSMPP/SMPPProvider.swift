import Foundation
import TacitCore
import TacitProviderKit

/// SMPP as one routed provider. Its session is a receipt source as well as the sender's
/// link: the composition root puts both in the application's dependencies.
public enum SMPPProvider {
    /// The name routes use (`TACIT_ROUTE_SMS=smpp`) and the timeline shows.
    public static let name = "smpp"

    /// nil when no SMPP setting is given; throws naming the setting when one is missing or wrong.
    public static func routed(_ settings: ProviderSettings, clock: any TacitClock = SystemClock())
        throws(ProviderSetupError) -> (provider: RoutedProvider, session: SMPPClient)? {
        guard let smpp = try SMPPSettings(settings) else { return nil }
        let client = SMPPClient(settings: smpp, clock: clock)
        return (RoutedProvider(name: name, channels: smpp.channels, sender: SMPPSender(client: client)), client)
    }
}
