import VaultFormat

/// libFuzzer entry point: the device-state decoder every command uses (`DeviceState(decoding:)`,
/// the state's one decoder) accepts or refuses any bytes, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceState(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  _ = DeviceState(decoding: Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
