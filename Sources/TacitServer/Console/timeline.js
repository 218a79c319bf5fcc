"use strict";
// Events grouped by stage: one group per workflow channel plus "verification".
// Each event shows its plain-English note first, its label underneath, a source
// badge and the time since the first event. A stage a real provider carried shows
// its provider trail under the stage's name, and each provider event its badge.
(function (T) {
  const OUTCOME_ICON = { success: "✓", failure: "✗", info: "•" };
  const SOURCES = ["server", "device", "operator", "provider", "webhook"];

  class TimelineView {
    constructor(root) { this.root = root; this.reset([]); }

    /** Starts over with an empty group per channel, in workflow order. */
    reset(channels) {
      this.root.replaceChildren();
      this.groups = new Map();
      this.events = [];
      this.t0 = null;
      this.group("verification");
      channels.forEach((c) => this.group(c));
    }

    group(channel) {
      if (this.groups.has(channel)) return this.groups.get(channel);
      const title = T.el("h2", { className: "group-title" }, [
        T.el("span", { className: "group-dot", attrs: { "aria-hidden": "true" } }),
        T.el("span", { className: "group-name", text: T.channelName(channel) }),
        T.el("span", { className: "group-status" }),
      ]);
      const hops = T.el("ol", { className: "provider-trail", attrs: { "aria-label": T.channelName(channel) + " providers, in the order tried" } });
      const list = T.el("ol", { className: "events" });
      const empty = T.el("p", { className: "group-empty", text: "Nothing here yet." });
      const section = T.el("section", {
        className: "group " + T.channelClass(channel),
        attrs: { "data-channel": channel, "aria-label": T.channelName(channel) + " events" },
      }, [title, hops, empty, list]);
      this.root.appendChild(section);
      const group = { section, list, empty, status: title.lastChild, trail: new T.ProviderTrail(hops) };
      this.groups.set(channel, group);
      return group;
    }

    /** Shows each group's step status in words next to its name. */
    setStatuses(model) {
      for (const step of model.steps) {
        const g = this.group(step.channel);
        g.status.textContent = T.STEP_ICON[step.status] + " " + (T.STEP_TEXT[step.status] || step.status);
        g.section.dataset.status = step.status;
      }
      const v = this.group("verification");
      v.status.textContent = model.status;
      v.section.dataset.status = model.status;
    }

    /** Adds one event in seq order; duplicates (same seq) are ignored. */
    add(event) {
      if (this.events.some((e) => e.seq === event.seq)) return;
      const channel = event.channel && event.channel !== "verification" ? event.channel : "verification";
      const g = this.group(channel);
      const item = this.item(event);
      const later = Array.from(g.list.children).find((li) => Number(li.dataset.seq) > event.seq);
      g.list.insertBefore(item, later || null);
      g.empty.hidden = true;
      g.trail.add(event);
      this.events.push({ seq: event.seq, at: T.parseTime(event.at), node: item });
      this.retime();
    }

    item(event) {
      const outcome = event.outcome in OUTCOME_ICON ? event.outcome : "info";
      const source = SOURCES.includes(event.source) ? event.source : "other";
      const note = event.note || event.label;
      const hop = T.providerHop(event);
      const li = T.el("li", {
        className: "event outcome-" + outcome,
        attrs: { "data-seq": event.seq, "data-label": event.label, "data-source": source },
      }, [
        T.el("span", { className: "event-icon", text: OUTCOME_ICON[outcome], attrs: { "aria-hidden": "true" } }),
        T.el("div", { className: "event-body" }, [
          T.el("p", { className: "event-note", text: note }),
          T.el("p", { className: "event-meta" }, [
            T.el("code", { className: "event-label", text: event.label }),
            T.el("span", { className: "badge src-" + source, text: event.source || "unknown" }),
            hop ? T.ProviderTrail.rowBadge(hop) : null,
            messageFacts(event),
            fraudFacts(event),
            T.el("span", { className: "visually-hidden", text: "outcome: " + outcome }),
          ]),
        ]),
        T.el("time", { className: "event-time", attrs: { datetime: event.at || "" } }),
      ]);
      return li;
    }

    /** Each stage's providers in the order tried ({sms: "Acme, then Brand"}), for the waterfall. */
    providers() {
      const out = {};
      for (const [channel, g] of this.groups) if (g.trail.summary) out[channel] = g.trail.summary;
      return out;
    }

    /** Times are relative to the earliest event (lowest seq), which may arrive late. */
    retime() {
      const first = this.events.reduce((a, b) => (b.seq < a.seq ? b : a));
      this.t0 = first.at;
      for (const e of this.events) {
        e.node.querySelector(".event-time").textContent = Number.isNaN(e.at - this.t0) ? "" : T.formatOffset(e.at - this.t0);
      }
    }
  }

  const LOCALE_WHY = { requested: "asked for", number: "from the number", default: "the default" };

  /** The locale a message is written in and why (api:create), or an SMS's alphabet and parts (code_sent). */
  function messageFacts(event) {
    const data = event.data || {};
    if (typeof data.locale !== "string") return null;
    const parts = ["locale " + data.locale];
    if (typeof data.locale_source === "string") parts.push(LOCALE_WHY[data.locale_source] || data.locale_source);
    if (typeof data.template === "string") parts.push("the app's template");
    if (typeof data.encoding === "string") parts.push(data.encoding);
    if (typeof data.segments === "number") parts.push(data.segments + (data.segments === 1 ? " segment" : " segments"));
    return T.el("span", { className: "badge message-facts", text: parts.join(" · ") });
  }

  const FRAUD_WORDS = {
    geo: "geo permissions", line_type: "line type", prefix_volume: "prefix volume",
    prefix_conversion: "prefix conversion", safe_list: "safe list", risk_check: "risk check off",
    address_limit: "address limit", sequential_numbers: "sequential numbers",
  };
  const fraudWord = (slug) => FRAUD_WORDS[slug] || String(slug).replace(/_/g, " ");
  const counted = (n, noun) => n + " " + noun + (n === 1 ? "" : "s");
  /** A wait in seconds in the largest whole unit that reads well: 1 h, 45 min, 30 s. */
  const waitFor = (s) =>
    (s >= 3600 ? Math.round(s / 360) / 10 + " h" : s >= 60 ? Math.round(s / 60) + " min" : s + " s");

  /** The start's line type (api:create), or a fraud decision's rule and figures: what a trusted
   * start skipped (fraud:bypassed), what a rule refused (fraud:blocked) or would have (fraud:monitored). */
  function fraudFacts(event) {
    const data = event.data || {};
    const parts = [];
    if (event.label === "api:create") {
      if (typeof data.line_type !== "string") return null;
      parts.push("line: " + fraudWord(data.line_type));
      if (data.test_number === true) parts.push("test number");
    } else if (event.label === "fraud:bypassed") {
      parts.push("trusted by " + fraudWord(data.reason || "the app"));
      if (Array.isArray(data.rules) && data.rules.length) parts.push("skipped " + data.rules.map(fraudWord).join(", "));
    } else if (event.label === "fraud:blocked" || event.label === "fraud:monitored") {
      const verb = event.label === "fraud:blocked" ? "blocked by " : "would be blocked by ";
      parts.push(verb + fraudWord(data.rule || "a rule"));
      if (typeof data.channel === "string") parts.push(T.channelName(data.channel));
      if (typeof data.country === "string") parts.push("country " + data.country);
      if (typeof data.line_type === "string") parts.push("line: " + fraudWord(data.line_type));
      if (typeof data.prefix === "string") parts.push("prefix +" + data.prefix);
      if (typeof data.sends === "number") parts.push(counted(data.sends, "send"));
      if (typeof data.conversions === "number") parts.push(counted(data.conversions, "conversion"));
      if (typeof data.baseline === "number") parts.push("baseline " + Math.round(data.baseline * 100) + " %");
      if (typeof data.retry_after === "number") parts.push("retry after " + waitFor(data.retry_after));
    } else {
      return null;
    }
    return T.el("span", { className: "badge fraud-facts", text: parts.join(" · ") });
  }

  T.TimelineView = TimelineView;
})(window.Tacit);
