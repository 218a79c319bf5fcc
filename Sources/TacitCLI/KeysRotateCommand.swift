import TacitServer

/// `tacit keys rotate`: puts a new master key at the front of the key file. The file is
/// replaced in one rename, so a server starting meanwhile reads the old file or the new.
enum KeysRotateCommand {
    static func run(_ configuration: ServerConfiguration, _ context: CommandContext) throws -> Int32 {
        guard configuration.secret?.isEmpty ?? true else {
            context.printError("tacit keys rotate: the keys come from TACIT_SECRET; to rotate, set a new TACIT_SECRET"
                               + " and put the old one first in TACIT_OLD_SECRETS")
            return 1
        }
        guard let path = configuration.keyFilePath else {
            context.printError("tacit keys rotate: an in-memory database has no key file; set TACIT_KEY_FILE")
            return 1
        }
        guard try KeyFile.read(path) != nil else {
            context.printError("tacit keys rotate: there is no key file at \(path) yet;"
                               + " `tacit serve` creates it on first start")
            return 1
        }
        let key = MasterKey.generate()
        // Under the file's lock, so a key another instance adds meanwhile is kept.
        let keys = try KeyFile.update(path) { existing in [key] + existing }
        let older = keys.dropFirst().map(\.name).joined(separator: ", ")
        context.print("Added key \(key.name) to \(path), before \(older).")
        context.print("Restart the servers: the new key seals new data, the older keys still open what they sealed.")
        context.print("Then run `tacit keys reseal`; after it the older keys can be removed from the file.")
        return 0
    }
}
