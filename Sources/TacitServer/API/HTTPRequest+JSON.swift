import TacitHTTP

extension HTTPRequest {
    /// Bodies are JSON. A missing or generic Content-Type is tolerated (curl's `-d`
    /// sends form encoding by default); a type that is clearly something else is refused.
    func requireJSON() throws(APIProblem) {
        guard let type = header("content-type")?.lowercased() else { return }
        let refused = ["multipart/", "xml", "text/html", "application/octet-stream"]
        if refused.contains(where: type.contains) { throw .unsupportedMediaType }
    }
}
