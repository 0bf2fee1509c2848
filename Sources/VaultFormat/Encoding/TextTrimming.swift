extension StringProtocol {
  /// Without spaces, tabs and carriage returns at either end: what a `KEY = VALUE` line of a
  /// settings file or a `key=value` line of git's credential protocol keeps of a word.
  package var trimmingBlanks: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !blank($0) }),
      let last = lastIndex(where: { !blank($0) })
    else { return "" }
    return String(self[first...last])
  }
}
