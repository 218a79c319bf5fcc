import CMicroHTTPD
public func _probe() -> UInt32 { MHD_USE_EPOLL.rawValue }
