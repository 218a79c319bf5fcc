"use strict";
// Shared helpers for the Tacit console: DOM building and formatting.
// Every piece of data reaches the page through textContent, never innerHTML.
window.Tacit = window.Tacit || {};
(function (T) {
  /** Builds an element. `text` is set with textContent so data is never parsed as markup. */
  T.el = function (tag, opts, children) {
    const node = document.createElement(tag);
    const o = opts || {};
    if (o.className) node.className = o.className;
    if (o.text !== undefined && o.text !== null) node.textContent = String(o.text);
    for (const [key, value] of Object.entries(o.attrs || {})) node.setAttribute(key, String(value));
    for (const child of children || []) if (child) node.appendChild(child);
    return node;
  };

  const CHANNEL_NAMES = {
    silent_auth: "Silent auth", sms: "SMS", voice: "Voice", whatsapp: "WhatsApp",
    verification: "Verification",
  };
  T.channelName = (c) => CHANNEL_NAMES[c] || String(c).replace(/_/g, " ");
  /** CSS class carrying a channel's colour; unknown channels share a neutral one. */
  T.channelClass = (c) => "ch-" + (CHANNEL_NAMES[c] ? c : "other");

  /** How each channel sends its code, for "Enter the code we sent …". */
  T.channelMedium = (c) => ({ sms: "by SMS", voice: "by voice call", whatsapp: "on WhatsApp" }[c]
    || "by " + T.channelName(c));

  /** Words for workflow step statuses; colour is never the only signal. */
  T.STEP_TEXT = {
    unused: "not used", active: "in progress", completed: "verified",
    failed: "failed", expired: "timed out", rejected: "rejected",
  };
  T.STEP_ICON = { unused: "○", active: "●", completed: "✓", failed: "✗", expired: "✗", rejected: "✗" };
  T.isFailedStep = (s) => s === "failed" || s === "expired" || s === "rejected";

  T.parseTime = (s) => (typeof s === "string" ? Date.parse(s) : NaN);
  // Rounds half up on whole hundredths first: toFixed alone turns 14.575 into "14.57".
  const seconds = (ms) => (Math.round(ms / 10) / 100).toFixed(2);
  T.formatOffset = (ms) => "+" + seconds(Math.max(0, ms)) + " s";
  T.formatDuration = (ms) => (ms < 1000 ? Math.round(ms) + " ms" : seconds(ms) + " s");

  /** Shows a number the way the server's events do: country code and last 4 digits. */
  T.maskNumber = (n) => (n.length > 7 ? n.slice(0, 3) + "•••••" + n.slice(-4) : "•••");
  T.isVirtualNumber = (n) => /^\+990\d+$/.test(n);
  T.normaliseNumber = (raw) => {
    const trimmed = raw.replace(/[\s().-]/g, "");
    return trimmed.startsWith("00") ? "+" + trimmed.slice(2) : trimmed;
  };
  T.labelSuffix = (label) => String(label || "").split(":").pop();

  T.show = (node, visible) => { node.hidden = !visible; };
})(window.Tacit);
