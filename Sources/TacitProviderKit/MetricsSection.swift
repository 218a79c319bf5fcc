import Foundation

/// Something outside the engine with lines of its own for `/metrics` (the provider
/// router's circuits): the application adds its section when the sender is one.
public protocol MetricsSection: Sendable {
    /// Whole exposition lines, each ending in a newline.
    func renderMetrics() -> String
}
