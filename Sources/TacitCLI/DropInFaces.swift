import TacitFaceTwilio
import TacitFaceVonage
import TacitServer

/// The drop-in compatible APIs this executable serves, and whose credentials and settings
/// `tacit apps` manages (docs/compatible-apis.md).
enum DropInFaces {
    static let all: [any CompatibleFace] = [VonageFace(), TwilioFace()]

    /// Every face setting `tacit apps` takes, by option.
    static var settings: [FaceSetting] { all.flatMap(\.settings) }
}
