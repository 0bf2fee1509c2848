/// Why `KeePassXMLReader` refuses a KeePass XML document.
public enum KeePassXMLFault: Equatable, Sendable {
  /// The document holds a NUL byte: it is not UTF-8 (UTF-16 or UTF-32).
  case notUTF8
  /// The document has a document type declaration (`<!DOCTYPE`).
  case declaresDocumentType
  /// libxml2 cannot be loaded; `reason` is the dynamic loader's message (`dlerror`).
  case libxml2NotLoaded(reason: String)
  /// The libxml2 that was loaded has no function `symbol`.
  case libxml2LacksSymbol(String)
  /// libxml2 finds the XML not well-formed, with its error `code` (`xmlParserErrors`).
  case notWellFormed(code: Int)
  /// The document has no `KeePassFile` element.
  case noKeePassFile
  /// The document's root element is `name`, not `KeePassFile`.
  case otherRoot(String)
  /// The value of the string `key` is encrypted (`Protected="True"`): a database's inner XML.
  case protectedValue(key: String)
}
