import Foundation
import VaultCLI
import VaultCore
import VaultFormat
import VaultManualGenerator

// generate-manual PACKAGE-ROOT: writes the completion scripts and the manual pages there, the
// pages made from their sources in PACKAGE-ROOT/man/src.
func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(status)
}

let usage = """
  usage: generate-manual PACKAGE-ROOT
  Writes completions/ and man/ under PACKAGE-ROOT, the pages made from PACKAGE-ROOT/man/src.

  """
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--help"] || arguments == ["-h"] {
  FileHandle.standardOutput.write(Data(usage.utf8))
  exit(0)
}
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
  fail("usage: generate-manual PACKAGE-ROOT", status: 64)
}
do {
  try GeneratedFiles.write(packageRoot: arguments[0])
} catch {
  fail("generate-manual: error: \(error)", status: 1)
}
