import Foundation

/// `application/x-www-form-urlencoded` bodies, as providers post their callbacks.
public enum FormBody {
    /// The body's pairs, in order; a pair without a name is dropped, one without `=` has
    /// an empty value.
    public static func pairs(_ body: [UInt8]) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String? {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(parts[0]), !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) ?? "" : "")
        }
    }
}
