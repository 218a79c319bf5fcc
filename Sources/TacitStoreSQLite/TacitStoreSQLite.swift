import CSQLite
public func _probe() -> Int32 { sqlite3_libversion_number() }
