/// The one parser of the command line: `--flag value`, `--flag=value` and `--switch`
/// arguments, and positional ones.
struct Arguments {
    /// A command line that doesn't fit the command: its usage goes to stderr, exit 2.
    struct UsageError: Error {
        var message: String
    }

    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var switches: Set<String> = []

    /// `valued` flags take a value; `flags` are switches. Anything else is a usage error.
    init(_ arguments: [String], valued: Set<String>, flags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name), inline == nil {
                switches.insert(name)
            } else if valued.contains(name) {
                if let inline { values[name] = inline; continue }
                guard index < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
                values[name] = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "unknown option --\(name)")
            }
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func has(_ name: String) -> Bool { switches.contains(name) }
}
