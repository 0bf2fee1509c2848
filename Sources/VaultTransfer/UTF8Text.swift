/// Checks of guarded bytes as UTF-8 text, made in place: no `String` holds a secret value.
enum UTF8Text {
  /// True for valid UTF-8 (a NUL byte included: CSV and XML text may hold one as data).
  static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// A name or key that is not secret, as a `String`, or nil when the bytes are not UTF-8.
  static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
    String(validating: bytes, as: UTF8.self)
  }
}
