import Foundation
import Testing

/// Reads the package's own sources: the boundary between the server and its
/// providers is a property of the code, so it is checked on the code.
@Suite("The server knows providers only through their ports")
struct ProviderBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every Swift file under `Sources/<target>`, as (path inside Sources, text).
    static func files(in target: String) -> [(path: String, text: String)] {
        let root = sources.appendingPathComponent(target)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.compactMap { url in
            (try? String(contentsOf: url, encoding: .utf8)).map { (target + "/" + url.lastPathComponent, $0) }
        }
    }

    static let devProviderNames = ["VirtualOperator", "HandsetInbox", "DevSilentCheck", "OperatorAnswer", "OperatorRoutes",
                                   "RoutingSender", "OperatorServer", "OperatorConfiguration"]

    @Test("TacitServer imports neither the SDK nor the virtual operator")
    func serverImports() {
        let files = Self.files(in: "TacitServer")
        #expect(files.count > 50)
        let offending = files.filter { $0.text.contains("import TacitKit") || $0.text.contains("import TacitOperator") }.map(\.path)
        #expect(offending == [])
    }

    @Test("no provider target imports the server: each builds on the provider kit, which imports no server either")
    func providersBuildOnTheKit() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasPrefix("TacitProviders") } + ["TacitProviderKit"]
        #expect(targets.count >= 7)
        for file in targets.flatMap(Self.files(in:)) {
            #expect(!file.text.contains("import TacitServer"), "\(file.path) imports the server")
        }
    }

    @Test("neither the server nor the CLI names a dev provider: the CLI only calls DevProviders.wire")
    func composition() {
        for target in ["TacitServer", "TacitCLI", "tacit"] {
            for file in Self.files(in: target) {
                let named = Self.devProviderNames.filter { file.text.contains($0) }
                #expect(named == [], "\(file.path) names \(named)")
            }
        }
        let wiring = Self.files(in: "TacitCLI").filter { $0.text.contains("DevProviders.wire(into:") }.map(\.path)
        #expect(wiring == ["TacitCLI/ServeCommand.swift"])
    }

    @Test("inside the provider target only the wiring builds the operator, the inbox and the routing sender")
    func onlyTheWiringBuilds() {
        for file in Self.files(in: "TacitProvidersDev") where file.path != "TacitProvidersDev/DevProviders.swift" {
            let built = ["VirtualOperator(", "HandsetInbox(", "RoutingSender(", "OperatorMount(", "HandsetMount("]
                .filter { file.text.contains($0) }
            #expect(built == [], "\(file.path) builds \(built)")
        }
    }

    @Test("the virtual range's prefix is written once, in VirtualRange")
    func virtualRangeOnce() {
        let targets = ["TacitCore", "TacitPhone", "TacitOperator", "TacitServer", "TacitProvidersDev", "TacitCLI", "tacit"]
        let literals = targets.flatMap(Self.files(in:)).filter { file in
            file.text.contains("\"+990\"") || file.text.contains("= 990")
        }.map(\.path)
        #expect(literals == ["TacitCore/VirtualRange.swift"])
    }

    @Test("no file of TacitCore or TacitStore names a vendor: the engine and the store speak of faces and providers")
    func coreAndStoreNameNoVendor() {
        let vendors = ["vonage", "twilio", "tru.id", "truid"]
        for file in ["TacitCore", "TacitStore"].flatMap(Self.files(in:)) {
            let lowered = file.text.lowercased()
            let named = vendors.filter { lowered.contains($0) }
            #expect(named == [], "\(file.path) names \(named)")
        }
    }
}
