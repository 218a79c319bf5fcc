extension SilentKeys {
    /// The path check URLs begin with, after the server's base URL.
    public static var checkURLPath: String { CheckURLIssuer.path }

    /// The verification a check URL names, when this server issued it: its own base URL
    /// and check path, then a token that opens under the check cipher. nil for any other
    /// URL, so a dev tool that fetches check URLs can refuse to fetch anything else.
    public func verificationId(ofCheckURL url: String) -> String? {
        let prefix = baseURL + CheckURLIssuer.path
        guard url.hasPrefix(prefix) else { return nil }
        // A cipher that can't open it (or fails) is refused like a forged token.
        return (try? CheckToken(sealed: String(url.dropFirst(prefix.count)), cipher: checkCipher))?.verificationId
    }
}
