import VaultAgent
import VaultCrypto

/// libFuzzer entry point: the agent protocol's message reader (vault(5), AGENT PROTOCOL) and the
/// session token's parser accept or refuse any bytes, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAgentMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if !bytes.isEmpty {
    _ = try? AgentMessage.decode(SecureBytes(copying: bytes))
  }
  if let text = String(validating: bytes, as: UTF8.self) {
    _ = SessionToken.parse(text)
  }
  return 0
}
