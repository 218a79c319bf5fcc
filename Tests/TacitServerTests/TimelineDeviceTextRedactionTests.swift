import Foundation
import Testing
import TacitTesting

/// Device free text that spells the verification's code, number or client token in a
/// disguise the digit-run and word rules miss is stored masked anyway.
@Suite("Device text redaction against what the verification issued", .timeLimit(.minutes(1)))
struct TimelineDeviceTextRedactionTests {
    static let number = "+99012345670"

    enum Disguise: String, CaseIterable, Sendable {
        case dashedCode, spacedCode, fullWidthCode, dottedNumber, splitToken

        func text(code: String, token: String) -> String {
            switch self {
            case .dashedCode: return "The user typed " + code.map(String.init).joined(separator: "-") + " into the form."
            case .spacedCode: return "The user typed " + code.prefix(3) + " " + code.dropFirst(3) + " into the form."
            case .fullWidthCode:
                let wide = code.unicodeScalars.map { Character(Unicode.Scalar($0.value - 0x30 + 0xFF10)!) }
                return "The user typed " + String(wide) + " into the form."
            case .dottedNumber: return "The SIM reports +990.123.456.70 as its line."
            case .splitToken:
                let middle = token.index(token.startIndex, offsetBy: token.count / 2)
                return "Token was " + token[..<middle] + " " + token[middle...] + " in the log."
            }
        }
    }

    @Test("a code, number or token typed with separators, full-width digits or a space inside is stored masked, in the note and in data",
          arguments: Disguise.allCases)
    func disguised(_ disguise: Disguise) async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, token) = try await server.start(Self.number)
            let code = try #require(try await server.codes(Self.number).last)
            let typed = disguise.text(code: code, token: token)
            let body = try JSONSerialization.data(withJSONObject: ["label": "device:typed", "note": typed, "data": ["typed": typed]])
            let reply = try await server.call("POST", "/v1/verifications/\(id)/events", json: String(decoding: body, as: UTF8.self),
                                              headers: ["Authorization": "Bearer \(token)"])
            #expect(reply.status == 201)
            let stored = try #require(try await server.events(id).last)
            let note = try #require(stored["note"] as? String)
            let data = try #require((stored["data"] as? [String: Any])?["typed"] as? String)
            for text in [note, data] {
                let digits = text.precomposedStringWithCompatibilityMapping.filter(\.isNumber)
                #expect(!digits.contains(code), "the code survived in \(text)")
                #expect(!digits.contains("9901234"), "the number survived in \(text)")
                let joined = text.filter { !$0.isWhitespace }
                let tail = Array(token.suffix(43))
                #expect(!(0...(tail.count - 8)).contains { joined.contains(String(tail[$0..<($0 + 8)])) }, "the token survived in \(text)")
            }
            switch disguise {
            case .dottedNumber: #expect(note.contains("+99•••••5670"))
            case .splitToken: #expect(note.contains("[redacted]"))
            default: #expect(note.contains("••••" + code.suffix(2)))
            }
        }
    }
}
