import TacitCore

extension IssuedSecrets {
    /// What `verification` issued to the device holding `clientToken`: its number, a test
    /// against its current code's keyed hash, and the token's random tail (the prefix and
    /// id before it are not secret).
    init(_ verification: Verification, clientToken: String, secrets: ServerSecrets) {
        let hash = verification.codeHash
        let step = verification.codeStep
        let id = verification.id
        self.init(phoneNumber: verification.phoneNumber, codeLength: verification.codeLength,
                  tokenTails: [String(clientToken.suffix(ClientToken.tailLength))]) { digits in
            guard let hash, let step else { return false }
            // Every key of the ring is tried: a code issued before `tacit keys rotate` is still
            // the device's code. A hash that can't be computed matches nothing; the text is then
            // scrubbed by the other rules only.
            return (try? secrets.codeMatches(hash, code: digits, verificationId: id, step: step)) ?? false
        }
    }
}
