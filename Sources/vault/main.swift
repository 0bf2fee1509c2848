import Foundation
import VaultCLI

exit(
  VaultMain.run(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
