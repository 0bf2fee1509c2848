import VaultAgent

/// libFuzzer entry point: the session-record parser (a fixed binary record, or an older release's
/// JSON file refused unread) accepts or refuses any bytes, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  try? SessionStore.checkRecord(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
