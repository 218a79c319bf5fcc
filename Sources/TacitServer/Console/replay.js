"use strict";
// Replays an exported timeline with its original relative timing, scaled by a
// speed control. Events go through the same handler as live ones.
(function (T) {
  /** Checks an export's shape; throws an Error with a readable message when it is wrong. */
  T.parseExport = function (text) {
    let doc;
    try { doc = JSON.parse(text); } catch (e) { throw new Error("That file isn't JSON."); }
    if (!doc || !Array.isArray(doc.events)) throw new Error("That file isn't a Tacit timeline export (no events).");
    doc.events = doc.events.filter((e) => e && typeof e.seq === "number").sort((a, b) => a.seq - b.seq);
    return doc;
  };

  class Replayer {
    constructor(onEvent, onProgress) {
      this.onEvent = onEvent;
      this.onProgress = onProgress;
      this.timer = null;
    }

    /** Starts from the first event; speed 0 means as fast as possible. */
    play(doc, speed) {
      this.stop();
      this.events = doc.events;
      this.index = 0;
      this.t0 = T.parseTime(this.events.length ? this.events[0].at : "") || 0;
      this.setSpeed(speed);
    }

    /** Changes speed mid-replay without jumping: the clock restarts at the next event. */
    setSpeed(speed) {
      this.speed = speed;
      if (!this.events) return;
      clearTimeout(this.timer);
      this.base = this.index < this.events.length ? this.offset(this.index) : 0;
      this.started = performance.now();
      this.schedule();
    }

    offset(i) {
      const t = T.parseTime(this.events[i].at);
      return Number.isNaN(t) ? 0 : Math.max(0, t - this.t0);
    }

    schedule() {
      if (this.index >= this.events.length) { this.timer = null; this.onProgress(this.index, this.events.length, true); return; }
      const due = this.speed > 0 ? (this.offset(this.index) - this.base) / this.speed : 0;
      const wait = Math.max(0, due - (performance.now() - this.started));
      this.timer = setTimeout(() => this.step(), wait);
    }

    step() {
      const event = this.events[this.index];
      this.index += 1;
      this.onEvent(event);
      this.onProgress(this.index, this.events.length, false);
      this.schedule();
    }

    get running() { return this.timer !== null; }

    stop() {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  T.Replayer = Replayer;
})(window.Tacit);
