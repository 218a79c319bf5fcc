import Foundation

/// Key pairs made with the `openssl` command for a test, in a directory of its own: RS256
/// is checked against keys libcrypto did not make for itself.
public struct OpenSSLKeys: Sendable {
    public let directory: URL

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-rsa-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Runs `openssl` with `arguments` in the directory and returns its standard output.
    /// The process and its pipes block, so they run off the cooperative pool.
    @discardableResult
    public func openssl(_ arguments: [String], input: [UInt8]? = nil) async throws -> [UInt8] {
        let directory = self.directory
        return try await offThePool { try Self.run(arguments, input: input, in: directory) }
    }

    private static func run(_ arguments: [String], input: [UInt8]?, in directory: URL) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardInput = stdin
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return Array(data)
    }

    /// A new key as `name` (PKCS#8) and its public half as `name.pub` (SPKI); both PEM texts.
    public func rsa(_ name: String, bits: Int = 2048) async throws -> (privatePEM: String, publicPEM: String) {
        try await openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", name])
        try await openssl(["pkey", "-in", name, "-pubout", "-out", name + ".pub"])
        return (try read(name), try read(name + ".pub"))
    }

    /// One key pair made once per test process, for tests that need a key but not a fresh one:
    /// key generation is the slow part of these tests on a loaded machine.
    public static func shared() async throws -> (privatePEM: String, publicPEM: String) {
        try await sharedPair.value
    }

    // Made on first use and awaited by every later caller.
    private static let sharedPair = Task { () throws -> (privatePEM: String, publicPEM: String) in
        let keys = try OpenSSLKeys()
        defer { keys.remove() }
        return try await keys.rsa("shared.key")
    }

    public func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
