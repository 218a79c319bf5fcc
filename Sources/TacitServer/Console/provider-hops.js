"use strict";
// What the `source: provider` events say about each message a real provider was handed:
// the provider, a short message id and where its delivery stands, in words. The events
// are redacted by the server already; this only reads names, ids, statuses and codes,
// so no number, code or secret can reach the page through it.
(function (T) {
  const NAMES = { twilio: "Twilio", vonage: "Vonage", smpp: "SMPP", truid: "tru.ID", camara: "CAMARA" };
  T.providerName = (p) => NAMES[p] || (p ? String(p) : "A provider");

  /** The last 6 characters of a provider's message id: enough to find it in the provider's console. */
  T.shortId = (id) => (typeof id !== "string" || !id ? "" : id.length > 6 ? "…" + id.slice(-6) : id);

  /** Words for a hop's state; the icons only repeat them for the eye. */
  T.HOP_TEXT = {
    accepted: "accepted", queued: "queued", sent: "sent", delivered: "delivered",
    undeliverable: "undeliverable", failed_over: "failed over", refused: "refused", failed: "not sent",
  };
  T.HOP_ICON = {
    accepted: "•", queued: "•", sent: "•", delivered: "✓",
    undeliverable: "✗", failed_over: "↪", refused: "✗", failed: "✗",
  };
  T.isFailedHop = (state) => state === "undeliverable" || state === "failed_over" || state === "refused" || state === "failed";

  // Delivery-receipt error codes that say why a message never arrived (Twilio's 30xxx family).
  const ERRORS = {
    30001: "the provider's queue overflowed", 30002: "the provider account is suspended",
    30003: "the phone is switched off or out of reach", 30004: "the message was blocked",
    30005: "the number is unknown or no longer in service", 30006: "the number is a landline or its network can't be reached",
    30007: "the carrier filtered the message as spam", 30008: "the carrier gave no reason",
    30034: "the sender is not registered for this country",
  };
  // The router's stable reasons for a refusal at send time.
  const REASONS = {
    provider_error: "the provider answered with an error", provider_unreachable: "the provider did not answer",
    rate_limited: "the provider asked to slow down", invalid_number: "the number is not a valid phone number",
    unreachable_number: "the number can't be reached on this channel", destination_not_permitted: "the account may not send there",
    number_blocked: "the number is blocked", number_opted_out: "the person opted out of messages",
    no_provider: "no provider is set up for it",
  };
  // A provider's own status word on a failed receipt.
  const STATUSES = {
    undelivered: "the message was not delivered", failed: "the provider could not send it",
    busy: "the line was busy", "no-answer": "nobody answered the call", canceled: "the call was cancelled",
    rejected: "the network rejected it", expired: "it expired before it could be delivered",
  };

  /** Why a hop failed, in words, with the provider's error code when there is one. */
  T.hopWhy = function (data) {
    const d = data || {};
    const words = ERRORS[d.error_code] || REASONS[d.reason] || STATUSES[d.status]
      || (d.status ? "the provider said " + d.status : "the provider gave no reason");
    return typeof d.error_code === "number" ? words + " (error " + d.error_code + ")" : words;
  };

  /** Reads one event as a hop ({provider, id, state, why, next}), or null when it isn't one. */
  T.providerHop = function (event) {
    if (!event || event.source !== "provider" || !/^provider:/.test(event.label || "")) return null;
    const d = event.data || {};
    const state = ({
      accepted: "accepted", delivered: "delivered", failed_over: "failed_over", refused: "refused",
      status: d.status === "queued" ? "queued" : "sent",
      failed: d.status ? "undeliverable" : "failed",
    })[T.labelSuffix(event.label)];
    if (!state) return null;
    return {
      provider: d.provider || "", id: typeof d.message_id === "string" ? d.message_id : "",
      state, why: T.isFailedHop(state) ? T.hopWhy(d) : "", next: d.next_provider || "",
    };
  };

  /** A hop's state in one phrase: "delivered", "undeliverable: the phone is … (error 30003)". */
  T.hopPhrase = function (hop) {
    const words = T.HOP_TEXT[hop.state];
    if (hop.state === "failed_over") return "could not take it, " + hop.why + "; failed over to " + T.providerName(hop.next);
    return hop.why ? words + ": " + hop.why : words;
  };

  /** One sentence for the live region, for the hops a person should hear about; "" for the rest. */
  T.hopAnnouncement = function (hop, channel) {
    const who = T.channelName(channel) + ": " + T.providerName(hop.provider);
    switch (hop.state) {
      case "undeliverable": return who + " could not deliver the message, " + hop.why + ".";
      case "failed_over": return who + " could not take the message, " + hop.why + ". Failing over to " + T.providerName(hop.next) + ".";
      case "refused": return who + " refused the message, " + hop.why + ".";
      case "failed": return who + " could not take the message, " + hop.why + ". No other provider is left.";
      default: return "";
    }
  };
})(window.Tacit);
