import Glibc
import VaultCore
import VaultFormat

/// libxml2's streaming `xmlTextReader`, loaded with `dlopen` when a KeePass XML file is read.
///
/// Linking libxml2 (as FoundationXML does) would load it, and the ICU, zlib and lzma it needs,
/// into every `vault` process at start: about a seventh of a `vault get`. Loaded here, only
/// `vault import --from keepass-xml` pays for it. The functions are libxml2's stable C API
/// (`xmlreader.h`, `xmlerror.h`, `tree.h`); the library is the one Debian's `libxml2` package
/// installs (`libxml2.so.2`).
///
/// The document is parsed from the caller's buffer without a copy; no network access, no
/// entity substitution, nothing printed on standard error.
final class XMLTextReader {
  /// What `read` stepped to.
  enum Node {
    /// An element's start tag (`empty` for `<a/>`, which has no end), with its line.
    case start(name: String, empty: Bool, line: Int)
    /// An element's end tag.
    case end(name: String)
    /// Text, CDATA or white space: its bytes, as libxml2 decoded them.
    case text(UnsafeRawBufferPointer)
    /// Anything else (a comment, a processing instruction).
    case other
  }

  /// Why the document could not be read: libxml2's error code (`xmlParserErrors`) and line, or
  /// that libxml2 itself is missing.
  enum Failure: Error, Equatable {
    /// libxml2's error `code` (`xmlParserErrors`) at `line`.
    case parse(code: Int, line: Int)
    /// libxml2 cannot be loaded, with the loader's message.
    case notLoaded(String)
    /// The libxml2 loaded has no function of this name.
    case lacksSymbol(String)
  }

  private typealias ReaderForMemory =
    @convention(c) (
      UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32
    ) -> OpaquePointer?
  private typealias ReaderInt = @convention(c) (OpaquePointer?) -> Int32
  private typealias ReaderText = @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?
  private typealias ReaderNamed = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  private typealias ReaderNode = @convention(c) (OpaquePointer?) -> OpaquePointer?
  private typealias NodeLine = @convention(c) (OpaquePointer?) -> Int
  private typealias ReaderFree = @convention(c) (OpaquePointer?) -> Void
  private typealias LastError = @convention(c) () -> UnsafeRawPointer?
  /// `xmlStructuredErrorFunc`: `void (*)(void *userData, xmlErrorPtr error)`.
  fileprivate typealias ErrorHandler =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
  private typealias SetReaderHandler =
    @convention(c) (OpaquePointer?, ErrorHandler?, UnsafeMutableRawPointer?) -> Void
  private typealias SetGlobalHandler =
    @convention(c) (UnsafeMutableRawPointer?, ErrorHandler?) -> Void
  private typealias ResetError = @convention(c) () -> Void

  /// libxml2's functions, looked up once.
  private struct Library {
    let readerForMemory: ReaderForMemory
    let read: ReaderInt
    let nodeType: ReaderInt
    let isEmptyElement: ReaderInt
    let constName: ReaderText
    let constValue: ReaderText
    let moveToAttribute: ReaderNamed
    let moveToElement: ReaderInt
    let currentNode: ReaderNode
    let lineNumber: NodeLine
    let free: ReaderFree
    let lastError: LastError
    let resetError: ResetError
    let setReaderHandler: SetReaderHandler
    let setGlobalHandler: SetGlobalHandler
  }

  /// `XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NONET`.
  private static let options: Int32 = (1 << 5) | (1 << 6) | (1 << 11)

  private static let library: Result<Library, Failure> = {
    guard let handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "libxml2.so.2 not found"
      return .failure(.notLoaded(reason))
    }
    func symbol<T>(_ name: String, as type: T.Type) throws -> T {
      guard let address = dlsym(handle, name) else {
        throw Failure.lacksSymbol(name)
      }
      return unsafeBitCast(address, to: type)
    }
    return Result {
      Library(
        readerForMemory: try symbol("xmlReaderForMemory", as: ReaderForMemory.self),
        read: try symbol("xmlTextReaderRead", as: ReaderInt.self),
        nodeType: try symbol("xmlTextReaderNodeType", as: ReaderInt.self),
        isEmptyElement: try symbol("xmlTextReaderIsEmptyElement", as: ReaderInt.self),
        constName: try symbol("xmlTextReaderConstName", as: ReaderText.self),
        constValue: try symbol("xmlTextReaderConstValue", as: ReaderText.self),
        moveToAttribute: try symbol("xmlTextReaderMoveToAttribute", as: ReaderNamed.self),
        moveToElement: try symbol("xmlTextReaderMoveToElement", as: ReaderInt.self),
        currentNode: try symbol("xmlTextReaderCurrentNode", as: ReaderNode.self),
        lineNumber: try symbol("xmlGetLineNo", as: NodeLine.self),
        free: try symbol("xmlFreeTextReader", as: ReaderFree.self),
        lastError: try symbol("xmlGetLastError", as: LastError.self),
        resetError: try symbol("xmlResetLastError", as: ResetError.self),
        setReaderHandler: try symbol(
          "xmlTextReaderSetStructuredErrorHandler", as: SetReaderHandler.self),
        setGlobalHandler: try symbol("xmlSetStructuredErrorFunc", as: SetGlobalHandler.self))
    }.mapError { $0 as? Failure ?? .notLoaded("\($0)") }
  }()

  private let library: Library
  private let reader: OpaquePointer

  /// A reader of `document`, which must stay valid and unchanged while the reader is used.
  ///
  /// - Throws: `Failure.notLoaded` or `.lacksSymbol` without libxml2; `.parse` when libxml2
  ///   refuses to start.
  init(_ document: UnsafeRawBufferPointer) throws {
    library = try Self.library.get()
    guard document.count <= Int(Int32.max) else { throw Failure.parse(code: 1, line: 0) }
    library.resetError()
    // Errors libxml2 raises outside what the options silence (a text node over 10 MB) would be
    // printed on standard error with the line of the document around them, a piece of a secret:
    // a handler that drops them, for the reader and for the parser behind it. The error itself
    // is still kept for `lastFailure`.
    library.setGlobalHandler(nil, silence)
    let base = document.baseAddress?.assumingMemoryBound(to: CChar.self)
    guard
      let made = library.readerForMemory(
        base, Int32(document.count), nil, "UTF-8", Self.options)
    else { throw Self.lastFailure(library) }
    library.setReaderHandler(made, silence, nil)
    reader = made
  }

  deinit { library.free(reader) }

  /// The next node, or nil at the end of the document.
  ///
  /// - Throws: `Failure.parse` where the document is not well-formed.
  func read() throws -> Node? {
    switch library.read(reader) {
    case 1: break
    case 0: return nil
    default: throw Self.lastFailure(library)
    }
    switch library.nodeType(reader) {
    case 1:
      let line = library.lineNumber(library.currentNode(reader))
      return .start(name: name(), empty: library.isEmptyElement(reader) == 1, line: line)
    case 15: return .end(name: name())
    case 3, 4, 13, 14:
      guard let value = library.constValue(reader) else {
        return .text(.init(start: nil, count: 0))
      }
      return .text(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    default: return .other
    }
  }

  /// The value of the current element's attribute `name`, if it has one.
  func attribute(_ name: String) -> String? {
    guard library.moveToAttribute(reader, name) == 1 else { return nil }
    defer { _ = library.moveToElement(reader) }
    return library.constValue(reader).map { String(cString: $0) }
  }

  private func name() -> String {
    library.constName(reader).map { String(cString: $0) } ?? ""
  }

  /// libxml2's last error, or code 1 (`XML_ERR_INTERNAL_ERROR`) at line 0 without one.
  ///
  /// `xmlError` begins `int domain; int code; char *message; int level; char *file;
  /// int line;`: on a 64-bit system `code` is at byte 4 and `line` at byte 32.
  private static func lastFailure(_ library: Library) -> Failure {
    guard let error = library.lastError() else { return .parse(code: 1, line: 0) }
    let code = Int(error.load(fromByteOffset: 4, as: Int32.self))
    let line = Int(error.load(fromByteOffset: 32, as: Int32.self))
    return .parse(code: code, line: line)
  }
}

/// The error handler given to libxml2: it prints nothing (the reader reports the error).
private let silence: XMLTextReader.ErrorHandler = { _, _ in }
