/// The token half of issued-secret scrubbing, and how masks become text. A token's
/// random tail is matched by its characters with spaces and invisible formatting
/// skipped, so a token split across words (`ct_vf_1_AbCd EfGh…`) is still found: the
/// word rule in `scrub` sees only the first half.
extension Redactor {
    static let redactedToken = "[redacted]"

    /// Every fragment of at least `IssuedSecrets.minimumTokenFragment` characters of a tail.
    static func tokenMasks(in scalars: [Unicode.Scalar], tails: [String]) -> [Mask] {
        let visible = scalars.indices.filter {
            !scalars[$0].properties.isWhitespace && scalars[$0].properties.generalCategory != .format
        }
        var masks: [Mask] = []
        for tail in tails {
            let secret = Array(tail.unicodeScalars)
            guard secret.count >= IssuedSecrets.minimumTokenFragment else { continue }
            var position = 0
            while position < visible.count {
                let length = longestMatch(of: secret, at: position, visible: visible, scalars: scalars)
                if length >= IssuedSecrets.minimumTokenFragment {
                    masks.append(Mask(range: visible[position]..<(visible[position + length - 1] + 1),
                                      replacement: redactedToken))
                    position += length
                } else {
                    position += 1
                }
            }
        }
        return masks
    }

    /// How many visible characters from `position` on spell some part of `secret`.
    private static func longestMatch(of secret: [Unicode.Scalar], at position: Int, visible: [Int],
                                     scalars: [Unicode.Scalar]) -> Int {
        var best = 0
        for start in secret.indices where secret[start] == scalars[visible[position]] {
            var length = 0
            while position + length < visible.count, start + length < secret.count,
                  scalars[visible[position + length]] == secret[start + length] {
                length += 1
            }
            best = max(best, length)
        }
        return best
    }

    /// The text with each mask's span replaced; overlapping spans merge, and a token's
    /// mask wins over a digit mask, since it keeps nothing.
    static func apply(_ masks: [Mask], to scalars: [Unicode.Scalar]) -> String {
        var merged: [Mask] = []
        for next in masks.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard var last = merged.last, next.range.lowerBound < last.range.upperBound else {
                merged.append(next)
                continue
            }
            let longer = next.range.count > last.range.count ? next.replacement : last.replacement
            let token = [next.replacement, last.replacement].contains(redactedToken)
            last.range = last.range.lowerBound..<max(last.range.upperBound, next.range.upperBound)
            last.replacement = token ? redactedToken : longer
            merged[merged.count - 1] = last
        }
        var output = String.UnicodeScalarView()
        var position = 0
        for mask in merged {
            output.append(contentsOf: scalars[position..<mask.range.lowerBound])
            output.append(contentsOf: mask.replacement.unicodeScalars)
            position = mask.range.upperBound
        }
        output.append(contentsOf: scalars[position...])
        return String(output)
    }
}
