/// A mobile network as receipts name it: its MCC and MNC together, 5 or 6 ASCII digits
/// (`23410`; docs/fraud.md#mobile-networks). The one shape check a receipt's network, its
/// timeline value and a block's key all go through.
public enum MobileNetwork {
    /// `text` when it is a network's MCC and MNC; otherwise nil.
    public static func code(_ text: String) -> String? {
        (5...6).contains(text.utf8.count) && text.isASCIIDigits ? text : nil
    }
}
