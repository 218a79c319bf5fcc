import TacitHTTP

extension APIProblem {
    static let unauthorized = APIProblem(status: 401, type: "unauthorized", title: "Unauthorized",
                                         detail: "Send a valid API key as `Authorization: Bearer tk_…`.")
    static let forbidden = APIProblem(status: 403, type: "forbidden", title: "Forbidden",
                                      detail: "The credential does not allow this request.")
    /// A keyless `--dev` call that may come from a web page of another site (docs/security.md).
    static let devAccessRefused = APIProblem(
        status: 403, type: "dev-access-refused", title: "Keyless dev access refused",
        detail: "Keyless dev access is only for callers on this machine that name this server in Host and send no"
            + " other site's Origin or a cross-site Sec-Fetch-Site; send an API key otherwise.")
    static func rateLimited(retryAfter: Int, detail: String) -> APIProblem {
        var problem = APIProblem(status: 429, type: "rate-limited", title: "Too many requests", detail: detail)
        problem.retryAfter = retryAfter
        return problem
    }
    static let destinationDenied = APIProblem(status: 403, type: "destination-denied", title: "Destination denied",
                                              detail: "This server does not send codes to numbers in this range.")
    /// The router's own answer for a path it doesn't have, so hidden routes look absent.
    static let noSuchRoute = APIProblem(status: 404, type: "not-found", title: "Not found",
                                        detail: "No resource exists at this path.")

    /// 401 with the challenge RFC 6750 asks for.
    var challengeResponse: HTTPResponse {
        var response = self.response
        response.headers.append(("WWW-Authenticate", #"Bearer realm="tacit""#))
        return response
    }
}
