import Foundation
import VaultFormat

/// libFuzzer entry point: the device-state decoder accepts or refuses any bytes, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceState(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  _ = try? JSONDecoder().decode(DeviceState.self, from: Data(bytes: data, count: size))
  return 0
}
