"use strict";
// A waterfall of stage durations: one bar per workflow step, placed on a shared
// time axis. Built from the events as they arrive, or from an export's `stages`.
(function (T) {
  // A step's bar ends at its completion or at any of the server's step-end labels
  // ("expired" too, as workflow.js reads it).
  const TERMINAL = ["completed", "expired", ...T.STEP_END_LABELS];

  /** Stage spans (ms since epoch) from events, in workflow order. */
  T.deriveStages = function (events, model) {
    const latest = Math.max(...events.map((e) => T.parseTime(e.at)).filter((t) => !Number.isNaN(t)));
    return model.steps.map((step) => {
      const mine = events.filter((e) => e.channel === step.channel);
      const startEvent = mine.find((e) => T.labelSuffix(e.label) === "started") || mine[0];
      const endEvent = mine.find((e) => TERMINAL.includes(T.labelSuffix(e.label)));
      const start = startEvent ? T.parseTime(startEvent.at) : NaN;
      const end = endEvent ? T.parseTime(endEvent.at) : (step.status === "active" ? latest : NaN);
      return { channel: step.channel, status: step.status, start, end, running: !endEvent && step.status === "active" };
    });
  };

  /** The same shape from an export's `stages` array. */
  T.exportStages = function (stages) {
    return stages.map((s) => ({
      channel: s.channel, status: s.status || "unused",
      start: T.parseTime(s.started_at), end: T.parseTime(s.ended_at), running: false,
    }));
  };

  class WaterfallView {
    constructor(root) { this.root = root; }

    /** `bounds` ({start, end}, ms) is the whole verification; the axis covers it when given.
     *  `providers` names, per channel, the providers its stage went through. */
    render(stages, bounds, providers) {
      this.providers = providers || {};
      const key = JSON.stringify([stages, bounds, this.providers]);
      if (key === this.key) return;
      this.key = key;
      const used = stages.filter((s) => !Number.isNaN(s.start));
      if (used.length === 0) {
        this.root.replaceChildren(T.el("p", { className: "wf-empty", text: "No stage has started yet." }));
        return;
      }
      const ends = used.map((s) => (Number.isNaN(s.end) ? s.start : s.end));
      const t0 = Math.min(...used.map((s) => s.start), bounds ? bounds.start : Infinity);
      const t1 = Math.max(...ends, bounds ? bounds.end : -Infinity);
      const span = Math.max(t1 - t0, 1);
      const rows = stages.map((s) => this.row(s, t0, span));
      const axis = T.el("p", { className: "wf-axis" }, [
        T.el("span", { text: "0 s" }),
        T.el("span", { className: "wf-total", text: "total " + T.formatDuration(t1 - t0) }),
      ]);
      this.root.replaceChildren(T.el("ol", { className: "waterfall" }, rows), axis);
    }

    row(stage, t0, span) {
      const started = !Number.isNaN(stage.start);
      const ended = !Number.isNaN(stage.end);
      const duration = started && ended ? stage.end - stage.start : NaN;
      const text = !started ? "not used" : Number.isNaN(duration) ? "…" : T.formatDuration(duration) + (stage.running ? " so far" : "");
      const words = T.STEP_TEXT[stage.status] || stage.status;
      const via = this.providers[stage.channel] ? "via " + this.providers[stage.channel] : "";
      const bar = T.el("div", { className: "wf-bar" });
      if (started) {
        bar.style.left = ((stage.start - t0) / span) * 100 + "%";
        bar.style.width = Math.max(((Number.isNaN(duration) ? 0 : duration) / span) * 100, 1) + "%";
      }
      return T.el("li", {
        className: "wf-row " + T.channelClass(stage.channel) + " is-" + stage.status + (stage.running ? " is-running" : ""),
        attrs: { "data-channel": stage.channel, "aria-label": T.channelName(stage.channel) + ": " + text + ", " + words + (via ? ", " + via : "") },
      }, [
        T.el("span", { className: "wf-name", text: T.channelName(stage.channel) }),
        T.el("div", { className: "wf-track", attrs: { "aria-hidden": "true" } }, started ? [bar] : []),
        T.el("span", { className: "wf-duration", text: text }),
        T.el("span", { className: "wf-status", text: (T.STEP_ICON[stage.status] || "") + " " + words }),
        via ? T.el("span", { className: "wf-provider", text: via }) : null,
      ]);
    }
  }

  T.WaterfallView = WaterfallView;
})(window.Tacit);
