import TacitStore

/// The application the request being answered acts for, set by the gate around a route
/// once its credential is checked (as swift-distributed-tracing carries a request's
/// context): the start route reads it to own what it creates, without every handler's
/// signature carrying a principal. It is the store's `StoreScope`, so the application
/// that owns what a start creates is the one whose rows every read in the request sees.
/// nil for a device's client token (bound to its own verification) and on open routes.
public enum ActingApplication {
    public static var id: String? { StoreScope.application }
}
