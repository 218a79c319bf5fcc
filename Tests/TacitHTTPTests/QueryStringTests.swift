import Testing
import TacitHTTP

@Suite("Query strings for redirects")
struct QueryStringTests {
    @Test("values are percent-encoded outside the unreserved set, + and & and = included")
    func encoding() {
        #expect(QueryString.encode("aZ09-._~") == "aZ09-._~")
        #expect(QueryString.encode("a+b c&d=e/f?g#h") == "a%2Bb%20c%26d%3De%2Ff%3Fg%23h")
        #expect(QueryString.encode("é") == "%C3%A9")
        #expect(QueryString.encode("") == "")
    }

    @Test("items go after an existing query and before a fragment", arguments: [
        ("http://h/cb", "http://h/cb?a=1&b=x%2By"),
        ("http://h/cb?k=v", "http://h/cb?k=v&a=1&b=x%2By"),
        ("http://h/cb?", "http://h/cb?a=1&b=x%2By"),
        ("http://h/cb?k=v&", "http://h/cb?k=v&a=1&b=x%2By"),
        ("http://h/cb#frag", "http://h/cb?a=1&b=x%2By#frag"),
        ("http://h/cb?k=v#f?x", "http://h/cb?k=v&a=1&b=x%2By#f?x"),
    ])
    func appending(url: String, expected: String) {
        #expect(QueryString.appending([("a", "1"), ("b", "x+y")], to: url) == expected)
        #expect(QueryString.appending([], to: url) == url)
    }

    @Test("only absolute http(s) URLs with a host and no characters needing escapes pass", arguments: [
        ("http://127.0.0.1:8080/v1/silent/callback", true), ("HTTPS://example.com", true), ("https://u@example.com/x?y#z", true),
        ("ftp://example.com", false), ("/relative", false), ("http://", false), ("http:///path", false), ("http://:80/", false),
        ("http://exa mple.com", false), ("http://example.com/<script>", false), ("http://example.com/\u{7F}", false),
        ("http://bücher.example", false), ("", false), ("javascript:alert(1)", false),
    ])
    func absoluteHTTP(url: String, valid: Bool) {
        #expect(QueryString.isAbsoluteHTTP(url) == valid)
    }
}
