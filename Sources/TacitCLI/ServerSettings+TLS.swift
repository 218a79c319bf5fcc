import Foundation
import TacitCrypto
import TacitHTTP
import TacitServer

/// `--tls-cert FILE` and `--tls-key FILE` (`TACIT_TLS_CERT`, `TACIT_TLS_KEY`): serve HTTPS
/// on the port. Both files are read and checked here, before anything is opened, so a bad
/// one stops `tacit serve` naming its setting, never its contents.
extension ServerSettings {
    static let tlsValued: Set<String> = ["tls-cert", "tls-key"]

    static let tlsUsage = """
          --tls-cert FILE       PEM certificate chain (the server's first); serves HTTPS on the port
          --tls-key FILE        PEM private key of that certificate, unencrypted (both or neither)
        """

    /// Why the TLS settings can't be used: one line naming the setting.
    public struct TLSSettingError: Error, CustomStringConvertible {
        /// The line `tacit serve` prints after `tacit: `.
        public let description: String

        init(_ flag: String, _ problem: String) {
            let variable = "TACIT_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            description = "--\(flag) (\(variable)): \(problem)"
        }
    }

    static func applyTLS(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        let certificatePath = setting("tls-cert").flatMap { $0.isEmpty ? nil : $0 }
        let keyPath = setting("tls-key").flatMap { $0.isEmpty ? nil : $0 }
        switch (certificatePath, keyPath) {
        case (nil, nil): return
        case (_, nil): throw TLSSettingError("tls-key", "missing: --tls-cert and --tls-key go together")
        case (nil, _): throw TLSSettingError("tls-cert", "missing: --tls-cert and --tls-key go together")
        case let (certificatePath?, keyPath?):
            let chain = try read(certificatePath, "tls-cert")
            let key = try read(keyPath, "tls-key")
            guard PEMCheck.certificateCount(chain) > 0 else {
                throw TLSSettingError("tls-cert", "not a PEM certificate")
            }
            guard PEMCheck.isPrivateKey(key) else {
                throw TLSSettingError("tls-key", "not an unencrypted PEM private key")
            }
            guard PEMCheck.key(key, matches: chain) else {
                throw TLSSettingError("tls-key", "does not belong to the first certificate of --tls-cert")
            }
            configuration.tls = TLSCredentials(certificateChainPEM: chain, privateKeyPEM: key)
        }
    }

    private static func read(_ path: String, _ flag: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSSettingError(flag, "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw TLSSettingError(flag, "not a PEM file") }
        return text
    }
}
