import Foundation
import VaultCLI

exit(BiosimMain.main())
