/// A parsed route pattern such as "/v1/verifications/:id/check" or "/static/*path".
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// Matches the rest of the path (possibly empty), joined with "/".
        case rest(String)
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) {
        self.text = text
        self.segments = RoutePattern.split(text).map { part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .rest(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    /// The non-empty `/`-separated segments, split byte by byte (`/` is ASCII, so every
    /// cut falls on a character boundary).
    static func split(_ path: String) -> [Substring] {
        var segments: [Substring] = []
        let bytes = path.utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: "/") {
                if start != index { segments.append(path[start..<index]) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if start != bytes.endIndex { segments.append(path[start..<bytes.endIndex]) }
        return segments
    }

    /// Whether `parts` has this pattern's shape: its literals in place and a segment for
    /// each parameter. Checked before anything is captured, as most patterns don't match.
    private func fits(_ parts: [Substring]) -> Bool {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest: return true
            case .literal(let literal):
                guard index < parts.count, parts[index].utf8.elementsEqual(literal.utf8) else { return false }
            case .parameter:
                guard index < parts.count else { return false }
            }
        }
        return parts.count == segments.count
    }

    /// The captured parameters when `path` matches, else nil.
    func match(_ parts: [Substring]) -> [String: String]? {
        guard fits(parts) else { return nil }
        var captured: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                captured[name] = parts.dropFirst(index).joined(separator: "/")
                return captured
            case .literal:
                continue
            case .parameter(let name):
                captured[name] = String(parts[index])
            }
        }
        return captured
    }

    /// Orders overlapping patterns: literals beat parameters, which beat a rest tail,
    /// compared from the first segment on.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            let a = mine.rank, b = theirs.rank
            if a != b { return a < b }
        }
        return segments.count > other.segments.count
    }
}

extension RoutePattern.Segment {
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    fileprivate var rank: Int {
        switch self {
        case .literal: 0
        case .parameter: 1
        case .rest: 2
        }
    }
}
