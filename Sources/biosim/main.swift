import FoundationEssentials
import Glibc
import VaultCLI

exit(BiosimMain.main())
