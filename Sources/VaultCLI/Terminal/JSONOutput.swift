import FoundationEssentials
import Glibc

/// A small JSON value with a deterministic rendering (keys in the order given, no escaped slashes),
/// for `--json` output whose shape is documented in the manual.
indirect enum JSONOutput {
  case string(String)
  case number(Int)
  case bool(Bool)
  case null
  case object([(String, JSONOutput)])
  case array([JSONOutput])

  var rendered: String {
    switch self {
    case .string(let s): return Self.quote(s)
    case .number(let n): return String(n)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .object(let pairs):
      return "{" + pairs.map { Self.quote($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
    case .array(let items):
      return "[" + items.map(\.rendered).joined(separator: ",") + "]"
    }
  }

  /// Scalars a terminal shows as nothing or as a box that `Output.hides` leaves for emoji and
  /// text (the joiner, variation selectors) or does not class as hidden (private use,
  /// noncharacters, unassigned, U+FFFC and U+FFFD): escaped in JSON, which means the same string
  /// to a reader, so two names never look alike there (`a\u200db` is not `ab`).
  static func invisibleInJSON(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\u{200D}" || (0xFE00...0xFE0F).contains(scalar.value)
      || scalar.value == 0xFFFC || scalar.value == 0xFFFD
    {
      return true
    }
    switch scalar.properties.generalCategory {
    case .privateUse, .unassigned: return true
    default: return scalar.properties.isNoncharacterCodePoint
    }
  }

  static func quote(_ s: String) -> String {
    // Most names and times are printable ASCII with nothing to escape: as they are.
    let plain = s.utf8.allSatisfy {
      (0x20..<0x7f).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
    }
    if plain { return "\"" + s + "\"" }
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7f || Output.hides(scalar)
          || Self.invisibleInJSON(scalar)
        {
          // The same string to a JSON reader, but nothing a terminal hides or acts on.
          for unit in String(scalar).utf16 { out += "\\u" + NumberText.hex4(unit) }
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
