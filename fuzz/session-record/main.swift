import VaultCore

/// libFuzzer entry point: the session-file parser accepts or refuses any bytes, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  try? SessionStore.checkRecord(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
