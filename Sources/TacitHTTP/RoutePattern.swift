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

    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The captured parameters when `path` matches, else nil.
    func match(_ parts: [Substring]) -> [String: String]? {
        var captured: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                captured[name] = parts.dropFirst(index).joined(separator: "/")
                return captured
            case .literal(let literal):
                guard index < parts.count, parts[index] == literal else { return nil }
            case .parameter(let name):
                guard index < parts.count else { return nil }
                captured[name] = String(parts[index])
            }
        }
        return parts.count == segments.count ? captured : nil
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
    fileprivate var rank: Int {
        switch self {
        case .literal: 0
        case .parameter: 1
        case .rest: 2
        }
    }
}
