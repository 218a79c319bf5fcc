import Foundation
import TacitCore
import TacitProviderKit

/// A Verify v2 silent-auth event callback (`"channel": "silent_auth"`), read once its
/// signature verified: Verify's request id, the status, and the `client_ref` Tacit set.
/// Only `failed`, `user_rejected` and `expired` change anything: each ends the silent step
/// at once instead of at its deadline. `completed` follows Tacit's own code check, which
/// already decided, and `action_pending` only repeats the check URL Tacit handed the device.
struct VonageSilentEvent: Equatable {
    var requestId: String
    var status: String
    var reference: CallbackReference?

    /// nil when the body is not a silent-auth event (a Messages or Voice API callback).
    init?(body: [UInt8]) {
        guard let object = (try? JSONParser.parse(body))?.objectValue, object["channel"]?.stringValue == "silent_auth",
              let id = object["request_id"]?.stringValue, let status = object["status"]?.stringValue else { return nil }
        requestId = id
        let shaped = status.count <= 32 && status.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") })
        self.status = shaped ? status.lowercased() : "unknown"
        reference = object["client_ref"]?.stringValue.flatMap(VonageClientReference.reference)
    }

    /// The check this event must be about for it to count.
    var check: SilentCheckReference? { silentStatus.check }

    /// How the step fails on this status; nil for a status that leaves it as it is.
    var failure: SilentFailure? {
        switch status {
        case "failed": .carrierError
        case "user_rejected": .rejected
        case "expired": .expired
        default: nil
        }
    }

    var event: EventDraft {
        let failing = failure != nil
        let note = failing
            ? "Vonage's callback says its silent check ended without a match (\(status)), so the workflow moves on."
            : "Vonage's callback reports its silent check as \(status)."
        return EventDraft("provider:silent_status", channel: .silentAuth, source: .provider,
                          outcome: failing ? .failure : .info, note: note,
                          data: ["provider": .text(VonageProvider.name), "status": .text(status)])
    }

    /// What the server acts on: the check named, and the failure and timeline event.
    var silentStatus: ProviderSilentStatus {
        ProviderSilentStatus(reference: reference, provider: VonageProvider.name, checkId: requestId, failure: failure,
                             event: event)
    }
}
