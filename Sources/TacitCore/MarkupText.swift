/// Text made safe to place in XML or HTML, as element content or a quoted attribute: the
/// TwiML a call speaks and the HTML part of an email both write message text into markup.
public enum MarkupText {
    /// `text` with `& < > " '` written as references (`'` as `&#39;`, which XML and every
    /// HTML read alike).
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
