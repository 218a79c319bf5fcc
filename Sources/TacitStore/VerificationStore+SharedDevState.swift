extension VerificationStore {
    /// Where a `--dev` server on this store keeps the virtual operator's sessions and key
    /// and the handset inboxes: in the store when several instances may share it (a store
    /// that offers a ``ChangeFeed``, so instances hear each other's writes), and in the
    /// process (nil) when one instance owns the store. There a write per dev message and
    /// per silent hop would buy nothing: no other instance reads them.
    public var sharedDevState: (any DevStateStore)? {
        self is any ChangeFeed ? self as? any DevStateStore : nil
    }
}
