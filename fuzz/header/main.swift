import VaultFormat

/// libFuzzer entry point: the vault header parser accepts or refuses any bytes, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  _ = try? Header.parse(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
