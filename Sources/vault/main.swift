import FoundationEssentials
import Glibc
import VaultCLI

exit(VaultMain.main())
