// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "vault",
  products: [
    .executable(name: "vault", targets: ["vault"]),
    .executable(name: "biosim", targets: ["biosim"]),
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
    .target(name: "VaultFormat", dependencies: ["VaultCrypto", "CSQLite", "CPlatform"]),
    .target(
      name: "VaultCore",
      dependencies: ["VaultCrypto", "VaultFormat", "CSQLite", "CLibOATH", "CPlatform"]),
    .target(name: "Biometry", dependencies: ["VaultCrypto", "VaultFormat", "VaultCore"]),
    .target(name: "VaultTransfer", dependencies: ["VaultCrypto", "VaultFormat", "VaultCore"]),
    .target(
      name: "VaultCLI",
      dependencies: [
        "VaultCrypto", "VaultFormat", "VaultCore", "VaultTransfer", "Biometry", "CPlatform",
      ]),
    .executableTarget(name: "vault", dependencies: ["VaultCLI"]),
    .executableTarget(name: "biosim", dependencies: ["VaultCLI"]),
    .target(
      name: "VaultManualGenerator",
      dependencies: ["VaultCLI", "VaultCore", "VaultTransfer", "Biometry"]),
    .executableTarget(
      name: "generate-manual", dependencies: ["VaultManualGenerator", "VaultCLI", "VaultCore"]),
    .target(
      name: "VaultTestSupport",
      dependencies: ["VaultCrypto", "VaultFormat", "VaultCore", "CSQLite", "CPlatform"],
      path: "Tests/VaultTestSupport"),
    .testTarget(
      name: "VaultCoreTests",
      dependencies: ["VaultCrypto", "VaultFormat", "VaultCore", "VaultTestSupport"]),
    .testTarget(
      name: "BiometryTests",
      dependencies: ["Biometry", "VaultCrypto", "VaultFormat", "VaultCore", "VaultTestSupport"]),
    .testTarget(
      name: "VaultCLITests",
      dependencies: [
        "VaultCLI", "VaultCrypto", "VaultFormat", "VaultCore", "VaultManualGenerator",
        "VaultTestSupport",
      ]),
    .testTarget(
      name: "VaultTransferTests",
      dependencies: [
        "VaultTransfer", "VaultCrypto", "VaultFormat", "VaultCore", "VaultTestSupport",
      ],
      exclude: ["Samples"]),
    .testTarget(name: "VaultManualGeneratorTests", dependencies: ["VaultManualGenerator"]),
  ]
)
