import Foundation
import TacitCore
import TacitProviderKit

/// An SMTP server as one routed provider, carrying the email channel.
public enum SMTPProvider {
    /// The name routes use (`TACIT_ROUTE_EMAIL=smtp`) and the timeline shows.
    public static let name = "smtp"

    /// nil when `TACIT_SMTP_URL` is not set; throws naming the setting when one is missing or wrong.
    public static func routed(_ settings: ProviderSettings, clock: any TacitClock = SystemClock())
        throws(ProviderSetupError) -> RoutedProvider? {
        guard let smtp = try SMTPSettings(settings) else { return nil }
        return RoutedProvider(name: name, channels: [.email],
                              sender: SMTPSender(settings: smtp, transport: CurlSMTPTransport(), clock: clock))
    }
}
