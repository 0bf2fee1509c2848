import VaultCore
import VaultFormat

/// The command a recorded change of an entry's history names.
enum HistoryChange {
  /// The command that made a version, from its recorded change.
  static func command(_ change: String?) -> String {
    switch change.flatMap(EntryChange.init(rawValue:)) {
    case .added: "add"
    case .replaced: "add --force"
    case .edited: "edit"
    case .oneTimeCode: "otp --set"
    case .generated: "generate"
    case .renamed: "mv"
    case .restored: "restore"
    case .imported: "import"
    case .fieldSet: "set"
    case .fieldUnset: "unset"
    case nil: change == "remove" ? "rm" : change == "purge" ? "purge" : "-"
    }
  }

}
