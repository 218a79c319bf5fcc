import Foundation
import TacitHTTP

/// The web console's files and the OpenAPI document, read once from the package's
/// resources at start-up.
struct ConsoleAssets: Sendable {
    private let files: [String: (type: String, bytes: [UInt8])]

    init() {
        var files: [String: (String, [UInt8])] = [:]
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                     "css": "text/css; charset=utf-8", "json": "application/json", "svg": "image/svg+xml",
                     "png": "image/png"]
        if let console = Bundle.module.url(forResource: "Console", withExtension: nil),
           let names = try? FileManager.default.contentsOfDirectory(atPath: console.path) {
            for name in names {
                guard let data = FileManager.default.contents(atPath: console.appendingPathComponent(name).path) else {
                    continue
                }
                let ext = (name as NSString).pathExtension
                files[name] = (types[ext] ?? "application/octet-stream", Array(data))
            }
        }
        for name in ["openapi"] {
            if let url = Bundle.module.url(forResource: name, withExtension: "json"),
               let data = try? Data(contentsOf: url) {
                files[name + ".json"] = ("application/json", Array(data))
            }
        }
        self.files = files
    }

    /// What every answer of the console carries (docs/security.md#the-console): scripts,
    /// styles and requests from this server only and no inline script, never framed
    /// (clickjacking), types taken as declared, and no referrer leaving with a link.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    func response(for name: String) -> HTTPResponse {
        guard !name.contains(".."), let file = files[name] else {
            return .problem(status: 404, type: "not-found", title: "Not found", detail: "No such console file.",
                            headers: Self.securityHeaders)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", file.type), ("Cache-Control", "no-cache")]
                                + Self.securityHeaders, body: .bytes(file.bytes))
    }
}
