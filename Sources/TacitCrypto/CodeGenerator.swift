import Synchronization

/// Makes one-time codes of decimal digits.
///
/// A struct of closures so that production uses ``secure`` and tests fix the
/// codes with ``fixed(_:)`` or ``sequence(_:)``.
public struct CodeGenerator: Sendable {
    /// The shortest and longest code lengths Tacit accepts.
    public static let allowedLengths: ClosedRange<Int> = 4...10

    /// Returns a code of the given number of digits.
    public var generate: @Sendable (Int) -> String

    /// Wraps a generating closure.
    public init(generate: @escaping @Sendable (Int) -> String) {
        self.generate = generate
    }

    /// Uniform random digits from the CSPRNG.
    ///
    /// Each digit comes from a random byte below 250 (the largest multiple of 10
    /// that fits), so `byte % 10` has no modulo bias; other bytes are rejected.
    public static let secure = CodeGenerator { length in
        precondition(allowedLengths.contains(length), "CodeGenerator: code length must be 4...10")
        var digits: [UInt8] = []
        digits.reserveCapacity(length)
        while digits.count < length {
            for byte in SecureRandom.bytes(length) where byte < 250 && digits.count < length {
                digits.append(UInt8(ascii: "0") + byte % 10)
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// Always returns `code`, whatever length is asked for (tests only).
    public static func fixed(_ code: String) -> CodeGenerator {
        CodeGenerator { _ in code }
    }

    /// Returns `codes` in order, then starts again from the first (tests only).
    public static func sequence(_ codes: [String]) -> CodeGenerator {
        precondition(!codes.isEmpty, "CodeGenerator.sequence needs at least one code")
        let next = Mutex(0)
        return CodeGenerator { _ in
            next.withLock { index in
                defer { index = (index + 1) % codes.count }
                return codes[index]
            }
        }
    }
}
