import Foundation
import Testing
@testable import TacitCore

/// The SDK (Foundation only) and the console keep their own copies of the end-reason
/// and step-end-label tables; these tests read the copies from the source tree and
/// hold them equal to the core's.
@Suite("Wire-name copies")
struct WireCopyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let coreReasons = Set(EndReason.wireNames.values)
    static let coreLabels = StepEndLabel.allCases.map(\.rawValue)

    @Test("the SDK's step-end labels and end reasons are the core's")
    func sdkCopy() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/TacitKit/Models/TimelineEvent+StepEnd.swift"), encoding: .utf8)
        #expect(try Self.rawValues(of: "StepEndLabel", in: source) == Self.coreLabels)
        #expect(Set(try Self.rawValues(of: "EndReason", in: source)) == Self.coreReasons)
        #expect(try Self.rawValues(of: "EndReason", in: source).count == Self.coreReasons.count, "no reason twice")
    }

    @Test("the console's step-end labels and end reasons are the core's")
    func consoleCopy() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/TacitServer/Console/workflow.js"), encoding: .utf8)
        #expect(try Self.jsList("T.STEP_END_LABELS", in: source) == Self.coreLabels)
        let reasons = try Self.jsList("T.END_REASONS", in: source)
        #expect(Set(reasons) == Self.coreReasons && reasons.count == Self.coreReasons.count)
    }

    /// The raw values of `enum name`'s cases, in order (every case spells its raw value out).
    static func rawValues(of name: String, in source: String) throws -> [String] {
        let body = try #require(source.range(of: "enum \(name):").map { source[$0.upperBound...] })
        let end = try #require(body.firstIndex(of: "}"))
        return quoted(body[..<end])
    }

    /// The strings of `name = [ … ];`.
    static func jsList(_ name: String, in source: String) throws -> [String] {
        let start = try #require(source.range(of: name + " = [")).upperBound
        let end = try #require(source[start...].firstIndex(of: "]"))
        return quoted(source[start..<end])
    }

    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
