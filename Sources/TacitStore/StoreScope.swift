/// The application whose verifications a store call may see. The security gate binds it
/// around every route a key reaches, so the read a route makes anyway is also its owner
/// check: inside it, every read or change of one verification by id
/// (`verification(id:)`, `recentVerification(id:)`, `update(id:at:_:)`,
/// `events(id:after:limit:)`) treats another application's verification as absent, through
/// the same query and the same code path as an id nobody has, so neither the answer nor
/// the work done to reach it shows that the row exists.
///
/// Unbound (the send and webhook workers, timers, provider callbacks, a device's client
/// token, which is bound to its own verification), a store sees every row.
public enum StoreScope {
    @TaskLocal public static var application: String?

    /// Whether a verification owned by `owner` is visible to `application` (a scope read
    /// once, before a store hands work to another thread, where task-locals don't reach).
    public static func admits(_ owner: String, to application: String?) -> Bool {
        application.map { $0 == owner } ?? true
    }
}
