import Foundation
import VaultCLI

exit(
  BiosimMain.run(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
