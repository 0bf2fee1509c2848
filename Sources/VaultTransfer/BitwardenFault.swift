import VaultFormat

/// Why `BitwardenJSONReader` refuses a Bitwarden JSON export or one of its items.
public enum BitwardenFault: Equatable, Sendable {
  /// The export is encrypted (`"encrypted": true`).
  case encrypted
  /// The document is no object with an `items` array.
  case notAnExport
  /// `folders` is not an array.
  case foldersNotAnArray
  /// A folder is not an object with an id and a name.
  case folderMalformed
  /// An item is of `kind`, not an object.
  case itemNotAnObject(GuardedJSON.Kind)
  /// An item's `type` is not a number.
  case typeNotANumber
  /// An item's type `type` is not one Bitwarden defines.
  case unknownType(Int)
  /// An item's `folderId` `id` names no folder of the export.
  case unknownFolder(String)
  /// A custom field is of `kind`, not an object.
  case customFieldNotAnObject(GuardedJSON.Kind)
}
