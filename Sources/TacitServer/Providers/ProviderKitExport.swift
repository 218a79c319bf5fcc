// The server's dependencies are filled with the kit's values (senders, mounts, callbacks,
// settings), so whoever imports the server to build one gets the kit's types with it.
@_exported import TacitProviderKit
