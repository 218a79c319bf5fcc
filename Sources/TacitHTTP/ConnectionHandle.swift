import CMicroHTTPD

/// An `MHD_Connection` pointer that may cross threads.
///
/// The pointer is only dereferenced by libmicrohttpd. Whoever suspended a connection
/// resumes it exactly once, and a suspended connection cannot be closed or freed, so
/// the pointer is valid whenever it is resumed.
struct ConnectionHandle: @unchecked Sendable {  // safe: see the ownership rule above
    let pointer: OpaquePointer

    func suspend() { MHD_suspend_connection(pointer) }
    func resume() { MHD_resume_connection(pointer) }
}
