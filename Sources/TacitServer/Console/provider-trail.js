"use strict";
// The providers one stage's message went through, in the order they were tried: one
// badge per message (provider, short id, delivery state in words), so a failover from
// one provider to another reads left to right. Receipts update the badge of the
// message they are about, matched by provider and message id.
(function (T) {
  /** Spaces between the parts, so a screen reader (and copied text) doesn't run the words together. */
  const spaced = (parts) => parts.filter(Boolean).flatMap((p, i) => (i ? [document.createTextNode(" "), p] : [p]));

  class ProviderTrail {
    /** `root` is the stage's list; it stays hidden until a provider is asked. */
    constructor(root) {
      this.root = root;
      this.hops = [];
      this.root.hidden = true;
    }

    /** Takes one event in any order; returns the hop it read, or null when it wasn't one. */
    add(event) {
      const hop = T.providerHop(event);
      if (!hop) return null;
      const key = hop.provider + " " + (hop.id || "seq " + event.seq);
      let entry = this.hops.find((h) => h.key === key);
      if (!entry) {
        entry = { key, first: event.seq, last: -Infinity, provider: hop.provider, id: hop.id, states: [], hop };
        this.hops.push(entry);
        this.hops.sort((a, b) => a.first - b.first);
      }
      entry.first = Math.min(entry.first, event.seq);
      entry.states.push({ seq: event.seq, state: hop.state });
      entry.states.sort((a, b) => a.seq - b.seq);
      // A late receipt about an earlier state doesn't undo what a newer one said.
      if (event.seq > entry.last) { entry.last = event.seq; entry.hop = hop; }
      this.render();
      return hop;
    }

    /** The providers in the order tried, each named once: "Acme, then Brand"; "" before any. */
    get summary() {
      const names = [];
      for (const h of this.hops) if (!names.includes(h.provider)) names.push(h.provider);
      return names.map(T.providerName).join(", then ");
    }

    render() {
      this.root.replaceChildren(...this.hops.map((entry, i) => ProviderTrail.badge(entry, i)));
      this.root.hidden = this.hops.length === 0;
    }

    /** The progress words in order ("accepted → sent → delivered"), each said once. */
    static progress(entry) {
      const words = [];
      for (const s of entry.states) {
        const word = s.seq === entry.last ? T.hopPhrase(entry.hop) : T.HOP_TEXT[s.state];
        if (words[words.length - 1] !== word) words.push(word);
      }
      return words.join(" → ");
    }

    static badge(entry, index) {
      const state = entry.hop.state;
      const outcome = state === "delivered" ? "ok" : T.isFailedHop(state) ? "bad" : "pending";
      return T.el("li", {
        className: "provider-hop is-" + outcome,
        attrs: { "data-provider": entry.provider, "data-state": state, "data-short-id": T.shortId(entry.id) },
      }, spaced([
        index > 0 ? T.el("span", { className: "hop-arrow", text: "→", attrs: { "aria-hidden": "true" } }) : null,
        index > 0 ? T.el("span", { className: "visually-hidden", text: "then" }) : null,
        T.el("span", { className: "hop-icon", text: T.HOP_ICON[state], attrs: { "aria-hidden": "true" } }),
        T.el("strong", { className: "hop-name", text: T.providerName(entry.provider) }),
        entry.id ? T.el("span", { className: "hop-id" }, [
          T.el("span", { className: "visually-hidden", text: "message " }),
          T.el("code", { text: T.shortId(entry.id) }),
        ]) : null,
        T.el("span", { className: "hop-state", text: ProviderTrail.progress(entry) }),
      ]));
    }

    /** The small badge on one provider event's row: who, which message, and what this event said. */
    static rowBadge(hop) {
      return T.el("span", {
        className: "provider-badge " + (T.isFailedHop(hop.state) ? "is-bad" : hop.state === "delivered" ? "is-ok" : "is-pending"),
        attrs: { "data-state": hop.state },
      }, spaced([
        T.el("strong", { text: T.providerName(hop.provider) }),
        hop.id ? T.el("code", { className: "hop-id", text: T.shortId(hop.id) }) : null,
        T.el("span", { className: "hop-state", text: T.hopPhrase(hop) }),
      ]));
    }
  }

  T.ProviderTrail = ProviderTrail;
})(window.Tacit);
