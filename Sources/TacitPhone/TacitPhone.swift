import CPhoneNumber
public func _probe() -> Int32 { var t: Int32 = 0; var buf = [CChar](repeating: 0, count: 32); return cphone_parse("+447911123456", "ZZ", &buf, 32, &t) }
