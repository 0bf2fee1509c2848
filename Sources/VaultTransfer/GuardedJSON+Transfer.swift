import VaultCore
import VaultCrypto
import VaultFormat

extension GuardedJSON {
  /// Parses the bytes `range` of `source` as `init(parsing:range:firstLine:)` does, for an
  /// import source.
  ///
  /// - Throws: `TransferError` at `.line(n)`, the line of the first fault, saying what it is.
  init(reading source: SecureBytes, range: Range<Int>? = nil, firstLine: Int = 1) throws {
    do {
      try self.init(parsing: source, range: range, firstLine: firstLine)
    } catch let error as JSONSyntaxError {
      throw TransferError(.jsonSyntax(error.fault), at: .line(error.line))
    }
  }
}
