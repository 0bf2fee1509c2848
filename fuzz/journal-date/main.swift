import VaultJournal

/// libFuzzer entry point: the journal DATE parser accepts or refuses any text, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalDate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  _ = try? JournalDate.parse(text, now: 1_800_000_000)
  return 0
}
