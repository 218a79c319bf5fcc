import Foundation
import Testing
import TacitCore
@testable import TacitProvidersTwilio

@Suite("Twilio answers' prices")
struct TwilioAnswerPriceTests {
    static func answer(price: String) -> OutboundResponse {
        let sid = TwilioAnswerTests.sid
        return OutboundResponse(status: 201, body: Array(#"{"sid":"\#(sid)","status":"queued",\#(price)}"#.utf8))
    }

    @Test("a price in the answer is kept without its sign, with its unit; a null or malformed one is not")
    func price() {
        let priced = TwilioAnswer.attempt(Self.answer(price: #""price":"-0.00790","price_unit":"USD""#))
        #expect(priced.price == "0.00790")
        #expect(priced.currency == "USD")
        for missing in [#""price":null,"price_unit":"USD""#, #""price":"free","price_unit":"USD""#,
                        #""price":"-0.0079","price_unit":"usd""#] {
            let attempt = TwilioAnswer.attempt(Self.answer(price: missing))
            #expect(attempt.refusal == nil)
            #expect(attempt.price == nil, "\(missing)")
        }
    }
}
