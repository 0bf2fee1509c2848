import VaultFormat

extension UserConfig.Fault: ReportableError {
  /// A settings file vault cannot read is refused input (5); nothing is changed.
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user, naming the file and the line.
  var message: String {
    let place = line == 0 ? path : "\(path) line \(line)"
    return switch problem {
    case .notText: "\(place) is not UTF-8 text"
    case .notKeyValue: "\(place) is not KEY = VALUE"
    case .unknownKey(let key): "\(place): vault has no setting '\(key)'"
    case .repeatedKey(let key): "\(place): \(key.rawValue) is set on an earlier line too"
    case .invalidValue(.pinentry):
      "\(place): pinentry is the absolute path of a pinentry program, tty or auto"
    case .invalidValue(.credentialFolder):
      "\(place): credential.folder is a folder of entry names, such as git"
    }
  }

  /// How to put it right.
  var hint: String? {
    "the settings are \(UserConfig.Key.allCases.map(\.rawValue).joined(separator: ", ")); fix"
      + " the file, or remove it and set them again with 'vault config --global KEY VALUE'"
  }
}
