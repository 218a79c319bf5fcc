import CMicroHTTPD

/// Decides what happens once a request is fully read, and queues responses.
enum RequestDispatcher {
    /// Called on a libmicrohttpd thread when the body is complete, and again after a
    /// resume, when the handler's response is ready.
    static func requestComplete(_ context: ConnectionContext, core: ServerCore) -> MHD_Result {
        switch context.phase {
        case .reading:
            core.deadlines.disarm(context.connection.pointer)
            return start(context, core: core)
        case .handling:
            context.phase = .answered
            let response = context.takeResponse() ?? Problems.shuttingDown
            return ResponseWriter.queue(response, on: context)
        case .answered:
            return .YES
        }
    }

    /// Answers a request that the screen refused, in the first call: libmicrohttpd then
    /// reads none of its body and closes the connection after the answer.
    static func refuse(_ context: ConnectionContext, with problem: HTTPResponse, core: ServerCore) -> MHD_Result {
        core.deadlines.disarm(context.connection.pointer)
        context.phase = .answered
        return ResponseWriter.queue(problem, on: context)
    }

    private static func start(_ context: ConnectionContext, core: ServerCore) -> MHD_Result {
        if context.tooLarge {
            context.phase = .answered
            return ResponseWriter.queue(Problems.payloadTooLarge(limit: context.maxBodyBytes), on: context)
        }
        switch core.admit(context) {
        case .overloaded:
            context.phase = .answered
            return ResponseWriter.queue(Problems.overloaded, on: context)
        case .shuttingDown:
            context.phase = .answered
            return ResponseWriter.queue(Problems.shuttingDown, on: context)
        case .admitted:
            let request = RequestReader.request(for: context)
            guard context.suspendForHandler() else {
                if context.countsTowardLimit { core.handlerFinished() }
                context.phase = .answered
                return ResponseWriter.queue(Problems.shuttingDown, on: context)
            }
            context.phase = .handling
            run(request, in: context, core: core)
            return .YES
        }
    }

    /// Runs the handler off libmicrohttpd's threads. A detached task is the bridge from
    /// C threads into Swift concurrency; nothing here inherits a caller's context.
    private static func run(_ request: HTTPRequest, in context: ConnectionContext, core: ServerCore) {
        let handler = core.handler
        let counted = context.countsTowardLimit
        Task.detached {
            let response = await handler(request)
            // Settled before it stops counting as in flight: a drain that sees nothing in
            // flight answers every unsettled handler 503, and must not win over this one.
            // Losing to shutdown drops the response; a dropped stream ends its producer.
            if !context.settle(with: response), case .writer(let writer) = response.body { writer.close() }
            if counted { core.handlerFinished() }
        }
    }
}
