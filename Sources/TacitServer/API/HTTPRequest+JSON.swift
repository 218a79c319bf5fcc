import TacitCore
import TacitHTTP

extension HTTPRequest {
    /// Bodies are JSON. A missing or generic Content-Type is tolerated (curl's `-d`
    /// sends form encoding by default); a type that is clearly something else is refused.
    public func requireJSON() throws(APIProblem) {
        guard let type = header("content-type") else { return }
        let refused = ["multipart/", "xml", "text/html", "application/octet-stream"]
        if refused.contains(where: { type.containsBytes($0, ignoringASCIICase: true) }) { throw .unsupportedMediaType }
    }

    /// The `{id}` path parameter when it has a verification id's shape; any other is unknown.
    func verificationID() throws(APIProblem) -> String {
        guard let id = pathParameters["id"], (1...64).contains(id.utf8.count), id.isTokenText else {
            throw APIProblem.notFound
        }
        return id
    }
}
