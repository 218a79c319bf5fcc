/// Named permissions carried by API keys and client tokens.
public enum Scope {
    /// Read verifications and their timelines (GET).
    public static let read = "verifications:read"
    /// Start, check, skip and cancel verifications.
    public static let write = "verifications:write"
    /// Set and delete the application's message templates (docs/api.md#templates).
    public static let templatesWrite = "templates:write"
    /// Lift the application's automatic prefix blocks (docs/fraud.md#prefix-blocks).
    public static let fraudWrite = "fraud:write"
    /// Change the application's settings and geo permissions (docs/api.md#settings).
    public static let settingsWrite = "settings:write"
    /// What a new key gets when `--scopes` is not given.
    public static let defaults = [read, write]
    public static let all: Set<String> = [read, write, templatesWrite, settingsWrite, fraudWrite]

    /// Client-token permissions: a device posting its own events.
    public static let deviceEvents = "device_events"
    /// Client-token permissions: a device submitting the silent-auth code.
    public static let silentAuthSubmit = "silent_auth_submit"
    /// Everything a client token may do, and only for its own verification while it is pending.
    public static let clientToken: Set<String> = [deviceEvents, silentAuthSubmit]
}
