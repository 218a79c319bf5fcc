extension SecureRandom {
    private static let alphanumericAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// `count` characters from A–Z, a–z and 0–9, each uniform: bytes of 248 and above are
    /// drawn again, so every character is equally likely.
    public static func alphanumerics(_ count: Int) -> String {
        var text = ""
        while text.count < count {
            for byte in bytes(count * 2) where byte < 248 && text.count < count {
                text.append(alphanumericAlphabet[Int(byte) % alphanumericAlphabet.count])
            }
        }
        return text
    }

    /// A version 4 UUID, lower case.
    public static func uuid() -> String {
        var random = bytes(16)
        random[6] = (random[6] & 0x0f) | 0x40
        random[8] = (random[8] & 0x3f) | 0x80
        let hex = Array(Hex.encode(random))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
