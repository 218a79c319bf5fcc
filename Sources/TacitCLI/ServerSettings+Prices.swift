import Foundation
import TacitServer

/// The price table for sends whose provider reports no price (`TACIT_PRICES` or a config
/// line naming a file, docs/settings.md#prices).
extension ServerSettings {
    static func applyPrices(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        guard let path = setting("prices") else { return }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Arguments.UsageError(message: "TACIT_PRICES names a file that cannot be read")
        }
        do {
            configuration.prices = try PriceTable(text: text)
        } catch {
            throw Arguments.UsageError(message: "TACIT_PRICES: \(error)")
        }
    }
}
