/// Makes identifiers; a struct of closures so tests can fix them.
public struct IDGenerator: Sendable {
    public var make: @Sendable () -> String
    public init(make: @escaping @Sendable () -> String) { self.make = make }
}
