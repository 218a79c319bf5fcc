import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// Refuses, before any handler runs, a request whose framing RFC 9112 calls invalid or
/// that a proxy in front of this server could read differently.
///
/// libmicrohttpd 0.9.75, at any strictness, takes the first of two `Content-Length`s and
/// parses the body's tail as a second request, accepts bare LF line ends, obs-fold, NUL
/// and other controls in values (and, unless at -1, whitespace before a colon), and reads
/// a body in an unknown transfer coding until the client closes. Its strictness 1 would refuse a
/// missing Host, but with an HTML page: this screen refuses it too, as problem+json, and
/// the daemon keeps its default strictness. Every refusal closes the connection.
enum RequestScreen {
    /// The answer to a request that must not reach its handler, or nil to go on.
    static func problem(
        _ connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> HTTPResponse? {
        var found = cmhd_screen()
        guard cmhd_screen_request(connection, method, version, &found) == 0 else { return nil }
        if found.malformed != 0 {
            return Problems.malformed("A header line ends without CRLF, holds a NUL, or continues the line before it.")
        }
        if found.bad_name != 0 {
            return Problems.malformed("A header name is not a token, e.g. a space before its colon.")
        }
        if found.bad_value != 0 { return Problems.malformed("A header value holds a control character.") }
        let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        if found.host_fields > 1 || (isHTTP11 && found.host_fields == 0) {
            return Problems.malformed("An HTTP/1.1 request carries exactly one Host header.")
        }
        if found.content_length_differs != 0 {
            return Problems.malformed("The request's Content-Length headers disagree.")
        }
        guard found.transfer_encoding_fields > 0 else { return nil }
        if found.content_length_fields > 0 {
            return Problems.malformed("A request carries Content-Length or Transfer-Encoding, not both.")
        }
        if !isHTTP11 { return Problems.malformed("Transfer-Encoding needs HTTP/1.1.") }
        return transferCodingProblem(connection, fields: Int(found.transfer_encoding_fields))
    }

    /// libmicrohttpd decodes a body only when the first Transfer-Encoding field is exactly
    /// `chunked`; any other coding is 501, and `chunked` twice or padded is bad framing.
    private static func transferCodingProblem(_ connection: OpaquePointer, fields: Int) -> HTTPResponse? {
        let listed = RequestReader.values(connection, kind: .HEADER_KIND, isHeader: true)["transfer-encoding"] ?? ""
        let codings = listed.split(separator: ",").map { $0.trimmed.lowercased() }.filter { !$0.isEmpty }
        if codings.contains(where: { $0 != "chunked" }) { return Problems.transferCodingNotImplemented }
        if fields == 1, codings.count == 1, listed.lowercased() == "chunked" { return nil }
        return Problems.malformed("Transfer-Encoding must name chunked once, and nothing else.")
    }
}

extension Substring {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
