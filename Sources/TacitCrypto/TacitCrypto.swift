import CCrypto
public func _probe() -> Int32 { var b = [UInt8](repeating: 0, count: 4); return RAND_bytes(&b, 4) }
