import Foundation
import TacitCore
import TacitProviderKit
@testable import TacitFaceVonage
@testable import TacitServer
@testable import TacitProvidersVonage
import Testing

/// Every id Tacit mints fits Verify's `client_ref` (letters and digits, at most 40) and
/// reads back as the same verification and step, so no Vonage Verify request goes out
/// without the reference its callbacks are routed by.
@Suite("Vonage Verify client_ref")
struct VonageClientReferenceTests {
    @Test("a thousand ids of each shape Tacit mints, at steps 0 and 2, fit and read back the same")
    func everyMintedIdFits() throws {
        for generator in [IDGenerator.timeOrdered(prefix: "vf_"), IDGenerator.vonageRequestID()] {
            for _ in 0..<1000 {
                let id = generator.make()
                for step in [0, 2] {
                    let text = try #require(VonageClientReference.text(verificationId: id, step: step), "\(id)")
                    #expect(text.count <= 40 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(text)")
                    #expect(VonageClientReference.reference(text) == CallbackReference(verificationId: id, step: step))
                }
            }
        }
    }

    @Test("text Tacit did not write names nothing", arguments: ["", "T0190", "U12S0", "Tzz S1", "E" + "Z4", "X12S0", "T" + String(repeating: "a", count: 32) + "S-1"])
    func foreignText(text: String) {
        #expect(VonageClientReference.reference(text) == nil)
    }
}
