"use strict";
// One live verification: starts it, follows its events over SSE (never polling),
// re-reads the state after step changes, and carries out the person's actions.
(function (T) {
  class Session {
    /**
     * `handlers.onEvent(event)` gets each event once; `handlers.onState(state)`
     * gets the server's view of the verification; `handlers.onLink(text)` the stream's health.
     */
    constructor(api, handlers) {
      this.api = api;
      this.h = handlers;
      this.seen = new Set();
      this.lastSeq = 0;
      this.closed = false;
      this.refreshing = null;
      this.refreshAgain = false;
    }

    async start(number, brand, email) {
      this.state = await this.api.start(number, brand, email);
      this.id = this.state.request_id;
      this.open();
      return this.state;
    }

    open() {
      this.source = new EventSource(this.api.eventsURL(this.id));
      this.source.onmessage = (m) => this.receiveMessage(m);
      this.source.onopen = () => { this.h.onLink("live"); this.catchUp(); };
      this.source.onerror = () => {
        if (this.closed) return;
        if (this.source.readyState === EventSource.CLOSED) {
          this.h.onLink("lost");
          this.catchUp();
        } else {
          this.h.onLink("reconnecting");
        }
      };
    }

    receiveMessage(message) {
      let event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      if (event && typeof event === "object") this.receive(event);
    }

    /** Events may come twice (stream and catch-up) or out of order: seq decides. */
    receive(event) {
      if (typeof event.seq !== "number" || this.seen.has(event.seq)) return;
      this.seen.add(event.seq);
      this.lastSeq = Math.max(this.lastSeq, event.seq);
      this.h.onEvent(event);
      if (T.isStepChange(event)) this.refresh();
      if (event.label === "verification:summary") this.close();
    }

    /** Fetches what the stream may have missed before it opened or after it broke. */
    async catchUp() {
      try {
        const page = await this.api.events(this.id, this.lastSeq);
        ((page && page.events) || []).slice().sort((a, b) => a.seq - b.seq).forEach((e) => this.receive(e));
      } catch (e) {
        // The stream carries on by itself; a missed catch-up only delays events.
      }
    }

    /** Re-reads the state; calls that land while one is in flight are folded into one more read. */
    async refresh() {
      if (this.refreshing) { this.refreshAgain = true; return this.refreshing; }
      this.refreshing = (async () => {
        do {
          this.refreshAgain = false;
          try {
            this.state = await this.api.state(this.id);
            this.h.onState(this.state);
          } catch (e) {
            // The next step-change event triggers another read.
          }
        } while (this.refreshAgain);
        this.refreshing = null;
      })();
      return this.refreshing;
    }

    async check(code) {
      const result = await this.api.check(this.id, code);
      this.refresh();
      return result;
    }

    async next() { await this.api.next(this.id); this.refresh(); }
    async cancel() { await this.api.cancel(this.id); this.refresh(); }

    close() {
      this.closed = true;
      if (this.source) this.source.close();
      this.h.onLink("closed");
    }
  }

  T.Session = Session;
})(window.Tacit);
