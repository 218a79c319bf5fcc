import TacitHTTP

/// The problems of routes a device reaches with its verification's client token.
extension APIProblem {
    static let clientTokenMissing = APIProblem(status: 401, type: "unauthorized", title: "Unauthorized",
                                               detail: "Send this verification's client token as `Authorization:"
                                                       + " Bearer <client_token>`.")
    static let clientTokenForbidden = APIProblem(status: 403, type: "forbidden", title: "Forbidden",
                                                 detail: "This client token belongs to another verification.")
    static let clientTokenExpired = APIProblem(status: 403, type: "forbidden", title: "Forbidden",
                                               detail: "The verification has finished, and its client token ended with"
                                                       + " it.")
}
