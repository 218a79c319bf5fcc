// swift-tools-version:6.0
import PackageDescription

// No outside packages: everything below is the toolchain or a Debian C library.
let package = Package(
    name: "Tacit",
    products: [
        .executable(name: "tacit", targets: ["tacit"]),
        .library(name: "TacitKit", targets: ["TacitKit"]),
    ],
    dependencies: [],
    targets: [
        // C libraries from Debian.
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        .systemLibrary(name: "CSQLite"),
        .systemLibrary(name: "CPostgres"),
        .systemLibrary(name: "CCrypto"),
        // libssl's TLS client, for TacitKit's socket transport on Linux only.
        .systemLibrary(name: "CSSL"),
        .target(
            name: "CPhoneNumber",
            cxxSettings: [.unsafeFlags(["-std=c++17"])],
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]
        ),

        // libcurl's SMTP client through one C function (its setopt is variadic). Linked by the
        // library's soname: Debian's runtime package, which the toolchain's URLSession already
        // loads, ships no unversioned link name.
        .target(name: "CCurlSMTP", linkerSettings: [.linkedLibrary(":libcurl.so.4")]),

        // Pure domain: no I/O, no C.
        .target(name: "TacitCore"),
        .target(name: "TacitCrypto", dependencies: ["CCrypto"]),
        .target(name: "TacitPhone", dependencies: ["CPhoneNumber", "TacitCore"]),
        .target(name: "TacitStore", dependencies: ["TacitCore"]),
        .target(name: "TacitStoreSQLite", dependencies: ["TacitCore", "TacitStore", "CSQLite"]),
        // The store for several instances on one PostgreSQL database, over libpq.
        .target(name: "TacitStorePostgres", dependencies: ["TacitCore", "TacitStore", "CPostgres"]),
        .target(name: "TacitHTTP", dependencies: ["CMicroHTTPD"]),
        .target(name: "TacitOperator", dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP"]),
        // What every provider plugs in through: settings, routed senders, silent readers and
        // checks, receipts, callbacks and mounts. It knows no server and no vendor; TacitHTTP
        // only for the requests a mounted route or a callback reads.
        .target(name: "TacitProviderKit", dependencies: ["TacitCore", "TacitHTTP"]),
        .target(
            name: "TacitServer",
            dependencies: ["TacitNetworking", "TacitCore", "TacitCrypto", "TacitPhone", "TacitStore", "TacitStoreSQLite",
                           "TacitHTTP", "TacitProviderKit"],
            resources: [.copy("Console"), .copy("openapi.json"), .copy("Locales")]
        ),
        // The drop-in compatible APIs, each on the server's one face extension point (`CompatibleFace`).
        .target(
            name: "TacitFaceVonage",
            dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP", "TacitPhone", "TacitStore", "TacitServer"],
            resources: [.copy("vonage-openapi.json")]
        ),
        .target(
            name: "TacitFaceTwilio",
            dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP", "TacitPhone", "TacitStore", "TacitServer"],
            resources: [.copy("openapi-twilio.json")]
        ),
        // The development providers (virtual operator, handset inbox) behind the kit's ports.
        .target(
            name: "TacitProvidersDev",
            dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP", "TacitStore", "TacitProviderKit", "TacitOperator",
                           "TacitKit"]
        ),
        // Twilio Programmable Messaging and Voice, and its status callbacks, on the kit.
        .target(name: "TacitProvidersTwilio",
                dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP", "TacitProviderKit"]),
        // Vonage's SMS, Messages, Voice and Verify APIs, and their callbacks, on the kit.
        .target(name: "TacitProvidersVonage",
                dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP", "TacitProviderKit"]),
        // tru.ID SubscriberCheck behind the kit's silent-auth ports.
        .target(name: "TacitProvidersTruID", dependencies: ["TacitCore", "TacitProviderKit"]),
        // SMPP 3.4 to any SMSC over POSIX sockets: one long-lived transceiver session.
        .target(name: "TacitProvidersSMPP", dependencies: ["TacitCore", "TacitProviderKit"]),
        // CAMARA Number Verification (silent auth) and SIM Swap (CIBA) at any operator or aggregator.
        .target(name: "TacitProvidersCAMARA",
                dependencies: ["TacitCore", "TacitCrypto", "TacitHTTP", "TacitProviderKit", "CCrypto"]),
        // Email codes through any SMTP server (STARTTLS, AUTH) over libcurl, on the kit.
        .target(name: "TacitProvidersSMTP",
                dependencies: ["TacitCore", "TacitCrypto", "TacitProviderKit", "CCurlSMTP"]),
        // URLSession calls whose cancellation can't deadlock, for the SDK and the server alike.
        .target(name: "TacitNetworking"),
        .target(name: "TacitKit", dependencies: ["TacitNetworking", .target(name: "CSSL", condition: .when(platforms: [.linux]))]),
        .target(name: "TacitTesting", dependencies: ["TacitNetworking", "TacitCore", "TacitStore", "TacitStoreSQLite", "TacitStorePostgres", "TacitHTTP", "TacitServer", "TacitFaceVonage", "TacitFaceTwilio", "TacitProvidersDev", "TacitKit", "TacitCrypto", "CCrypto"]),
        // The commands, their argument parsing and settings: what `tacit` runs, and tests call in process.
        .target(
            name: "TacitCLI",
            dependencies: [
                "TacitNetworking", "TacitCore", "TacitServer", "TacitFaceVonage", "TacitFaceTwilio", "TacitProvidersDev", "TacitProvidersTwilio",
                "TacitProvidersVonage", "TacitProvidersSMPP", "TacitProvidersSMTP", "TacitProvidersTruID", "TacitProvidersCAMARA", "TacitKit", "TacitOperator",
                "TacitStore", "TacitStoreSQLite", "TacitStorePostgres", "TacitCrypto", "TacitHTTP", "TacitProviderKit",
            ]
        ),
        // jemalloc serves the server's allocations: the request path frees on other threads
        // than it allocates on, where glibc's allocator falls back to its locked bins.
        .executableTarget(
            name: "tacit",
            dependencies: ["TacitCLI"],
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        // Benchmarks/floor's server: the benchmarked requests' writes and nothing else.
        .executableTarget(
            name: "tacit-floor",
            dependencies: ["TacitHTTP", "TacitStoreSQLite", "TacitCore", "TacitServer"],
            path: "Benchmarks/Floor",
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        // Benchmarks/run retention: creates/s while retention sweeps a backlog, against creates/s alone.
        .executableTarget(
            name: "tacit-retention-bench",
            dependencies: ["TacitCore", "TacitHTTP", "TacitServer", "TacitStore", "TacitStoreSQLite", "TacitProvidersDev"],
            path: "Benchmarks/Retention",
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        // Benchmarks/run smpp: messages/s through one SMPP session at a given window.
        .executableTarget(
            name: "tacit-smpp-bench",
            dependencies: ["TacitCore", "TacitProviderKit", "TacitProvidersSMPP"],
            path: "Benchmarks/SMPP"
        ),

        .testTarget(name: "TacitCoreTests", dependencies: ["TacitCore", "TacitTesting"]),
        .testTarget(name: "TacitCryptoTests", dependencies: ["TacitCrypto", "TacitTesting"]),
        .testTarget(name: "TacitPhoneTests", dependencies: ["TacitPhone"]),
        .testTarget(name: "TacitStoreSQLiteTests", dependencies: ["TacitStoreSQLite", "TacitStorePostgres", "TacitStore", "TacitCore", "TacitTesting"]),
        .testTarget(name: "TacitStorePostgresTests", dependencies: ["TacitStorePostgres", "TacitStore", "TacitCore", "TacitTesting"]),
        .testTarget(name: "TacitHTTPTests", dependencies: ["TacitNetworking", "TacitHTTP", "TacitKit", "TacitTesting"]),
        .testTarget(name: "TacitOperatorTests", dependencies: ["TacitOperator", "TacitHTTP", "TacitCore", "TacitCrypto", "TacitTesting", "TacitKit"]),
        .testTarget(name: "TacitServerTests", dependencies: ["TacitNetworking", "TacitServer", "TacitFaceVonage", "TacitFaceTwilio", "TacitTesting", "TacitKit", "TacitHTTP", "TacitCore", "TacitStore", "TacitOperator", "TacitStoreSQLite", "TacitStorePostgres", "TacitCrypto", "TacitProvidersDev"]),
        .testTarget(name: "TacitKitTests", dependencies: ["TacitKit", "TacitServer", "TacitProvidersDev", "TacitTesting", "TacitHTTP", "TacitStoreSQLite"]),
        .testTarget(name: "TacitProvidersTwilioTests",
                    dependencies: ["TacitProvidersTwilio", "TacitProviderKit", "TacitServer", "TacitCore",
                                   "TacitCrypto", "TacitStore", "TacitTesting"]),
        .testTarget(name: "TacitProvidersVonageTests",
                    dependencies: ["TacitProvidersVonage", "TacitProviderKit", "TacitServer", "TacitFaceVonage",
                                   "TacitCore", "TacitCrypto", "TacitStore", "TacitTesting"]),
        .testTarget(name: "TacitProvidersTruIDTests",
                    dependencies: ["TacitProvidersTruID", "TacitProviderKit", "TacitServer", "TacitCore",
                                   "TacitTesting"]),
        .testTarget(name: "TacitProvidersSMPPTests",
                    dependencies: ["TacitProvidersSMPP", "TacitProviderKit", "TacitServer", "TacitCore", "TacitStore",
                                   "TacitTesting"]),
        .testTarget(name: "TacitProvidersSMTPTests",
                    dependencies: ["TacitProvidersSMTP", "TacitProviderKit", "TacitCore", "TacitTesting"]),
        .testTarget(name: "TacitProvidersCAMARATests",
                    dependencies: ["TacitProvidersCAMARA", "TacitProviderKit", "TacitServer", "TacitCore",
                                   "TacitCrypto", "TacitTesting", "TacitOperator", "TacitKit"]),
        .testTarget(name: "TacitProvidersDevTests",
                    dependencies: ["TacitProvidersDev", "TacitProviderKit", "TacitServer", "TacitOperator",
                                   "TacitCore", "TacitCrypto", "TacitHTTP", "TacitTesting"]),
        .testTarget(
            name: "TacitCLITests",
            dependencies: [
                "TacitCLI", "TacitTesting", "TacitServer", "TacitKit", "TacitCore", "TacitCrypto", "TacitStore",
                "TacitStoreSQLite", "TacitNetworking",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
