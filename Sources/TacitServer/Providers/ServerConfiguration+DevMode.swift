import Foundation

/// The development providers read dev mode and their knobs from the server's configuration.
extension ServerConfiguration: DevModeSettings {}
