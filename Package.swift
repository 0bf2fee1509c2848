// swift-tools-version:6.0
import PackageDescription

/// The libraries, lowest first: each depends only on libraries above it in this list
/// (ARCHITECTURE.md draws the graph).
let crypto: [Target.Dependency] = ["VaultCrypto"]
let format = crypto + ["VaultFormat"]
let stores = format + ["VaultJournal", "VaultAgent", "VaultSecrets"]
let core = stores + ["VaultCore"]
let everything = core + ["VaultSync", "Biometry", "VaultTransfer"]

let package = Package(
  name: "vault",
  products: [
    .executable(name: "vault", targets: ["vault"]),
    .executable(name: "biosim", targets: ["biosim"]),
    .executable(name: "git-credential-vault", targets: ["git-credential-vault"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSodium", pkgConfig: "libsodium",
      providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CLibOATH", pkgConfig: "liboath",
      providers: [.apt(["liboath-dev"])]),
    .systemLibrary(name: "CPlatform"),
    .target(name: "VaultCrypto", dependencies: ["CSodium"]),
    .target(name: "VaultFormat", dependencies: crypto + ["CSQLite", "CPlatform"]),
    .target(name: "VaultJournal", dependencies: format),
    .target(name: "VaultAgent", dependencies: format + ["CPlatform"]),
    .target(name: "VaultSecrets", dependencies: format + ["CLibOATH"]),
    .target(name: "VaultCore", dependencies: stores),
    .target(name: "VaultSync", dependencies: core),
    .target(name: "Biometry", dependencies: format),
    .target(name: "VaultTransfer", dependencies: core),
    .target(name: "VaultCLI", dependencies: everything + ["CPlatform"]),
    .executableTarget(name: "vault", dependencies: ["VaultCLI"]),
    .executableTarget(name: "biosim", dependencies: ["VaultCLI"]),
    .executableTarget(name: "git-credential-vault"),
    .target(name: "VaultManualGenerator", dependencies: everything + ["VaultCLI"]),
    .executableTarget(
      name: "generate-manual", dependencies: everything + ["VaultManualGenerator", "VaultCLI"]),
    .target(
      name: "VaultTestSupport", dependencies: core + ["CSQLite", "CPlatform"],
      path: "Tests/VaultTestSupport"),
    .testTarget(name: "VaultCoreTests", dependencies: everything + ["VaultTestSupport"]),
    .testTarget(name: "BiometryTests", dependencies: everything + ["VaultTestSupport"]),
    .testTarget(
      name: "VaultCLITests",
      dependencies: everything + ["VaultCLI", "VaultManualGenerator", "VaultTestSupport"]),
    .testTarget(
      name: "VaultTransferTests", dependencies: everything + ["VaultTestSupport"],
      exclude: ["Samples"]),
    .testTarget(name: "VaultManualGeneratorTests", dependencies: ["VaultManualGenerator"]),
  ]
)
