import Foundation
import VaultCLI

exit(VaultMain.main())
