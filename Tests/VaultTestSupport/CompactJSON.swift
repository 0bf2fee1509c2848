import Foundation

/// Sorted, compact, ASCII-only JSON: byte for byte what Python writes with
/// `json.dumps(value, sort_keys=True, separators=(',', ':'))`, the form the tamper scripts stored
/// edited vault headers in before they were Swift.
///
/// Unlike `JSONSerialization`, it never escapes `/` (base64 is full of them) and escapes every
/// non-ASCII character as `\uXXXX` (a surrogate pair above U+FFFF), as Python does.
public enum CompactJSON {
  /// A value this encoder does not write: a floating-point number (the vault header has none, so
  /// Python's float formatting is not imitated) or a type that is not JSON.
  public struct UnsupportedValue: Error, CustomStringConvertible {
    /// The value's type and contents.
    public var description: String
  }

  /// Encodes objects (keys sorted by code point), arrays, strings, integers, booleans and null,
  /// as `JSONSerialization` reads them or as Swift literals write them.
  ///
  /// - Throws: `UnsupportedValue` for anything else.
  public static func encode(_ value: Any) throws -> [UInt8] {
    var out = ""
    try write(value, to: &out)
    return Array(out.utf8)
  }

  private static let booleanClass = type(of: NSNumber(value: true))

  private static func write(_ value: Any, to out: inout String) throws {
    if let object = value as? [String: Any] {
      // Python compares keys by code point.
      let members = object.sorted {
        $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars)
      }
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        write(string: member.key, to: &out)
        out += ":"
        try write(member.value, to: &out)
      }
      out += "}"
    } else if let array = value as? [Any] {
      out += "["
      for (index, element) in array.enumerated() {
        if index > 0 { out += "," }
        try write(element, to: &out)
      }
      out += "]"
    } else if let string = value as? String {
      write(string: string, to: &out)
    } else if value is NSNull {
      out += "null"
    } else if let number = value as? NSNumber {
      // Swift's Bool and JSONSerialization's booleans both bridge to the boolean subclass.
      if type(of: number) == booleanClass {
        out += number.boolValue ? "true" : "false"
      } else if ["d", "f"].contains(String(cString: number.objCType)) {
        throw UnsupportedValue(description: "floating-point number \(number)")
      } else if String(cString: number.objCType) == "Q" {
        out += String(number.uint64Value)
      } else {
        out += String(number.int64Value)
      }
    } else {
      throw UnsupportedValue(description: "\(type(of: value)): \(value)")
    }
  }

  private static func write(string: String, to out: inout String) {
    out += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case " "..."~": out.unicodeScalars.append(scalar)
      default:
        for unit in String(scalar).utf16 {
          let digits = String(unit, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
      }
    }
    out += "\""
  }
}
