import Foundation
import VaultCLI
import VaultCore
import VaultManualGenerator

// generate-manual PACKAGE-ROOT: writes the completion scripts and the manual pages there, the
// pages made from their sources in PACKAGE-ROOT/man/src.
func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
  fail("usage: generate-manual PACKAGE-ROOT", status: 64)
}
do {
  try GeneratedFiles.write(packageRoot: arguments[0])
} catch VaultError.storage(let message) {
  fail("generate-manual: error: \(message)", status: 1)
} catch {
  fail("generate-manual: error: \(error)", status: 1)
}
