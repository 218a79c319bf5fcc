"use strict";
// The channel tracker pinned at the top of Dev Mode: one pill per workflow step,
// and the same in one sentence for screen readers (the pills are drawn for the eye).
(function (T) {
  class TrackerView {
    constructor(root, text) {
      this.root = root;
      this.text = text;
    }

    /** Draws the steps of a WorkflowModel; the completed step is the winner. */
    render(model) {
      // Redraw only on change, so the active pill's pulse doesn't restart on every event.
      const key = JSON.stringify(model.steps);
      if (key === this.key) return;
      this.key = key;
      this.root.replaceChildren(...model.steps.map((step) => this.pill(step)));
      if (this.text) this.text.textContent = TrackerView.sentence(model.steps);
    }

    /** "Channels, in order: Silent auth, rejected; SMS, in progress, the current step; Voice, not used." */
    static sentence(steps) {
      const parts = steps.map((step) => T.channelName(step.channel) + ", " + (T.STEP_TEXT[step.status] || "not used")
        + (step.status === "active" ? ", the current step" : ""));
      return parts.length ? "Channels, in order: " + parts.join("; ") + "." : "";
    }

    pill(step) {
      const status = step.status in T.STEP_TEXT ? step.status : "unused";
      const classes = ["step", T.channelClass(step.channel), "is-" + status];
      if (T.isFailedStep(status)) classes.push("is-crossed");
      if (status === "completed") classes.push("is-winner");
      const li = T.el("li", {
        className: classes.join(" "),
        attrs: { "data-channel": step.channel, "data-status": status },
      }, [
        T.el("span", { className: "step-icon", text: T.STEP_ICON[status], attrs: { "aria-hidden": "true" } }),
        T.el("span", { className: "step-name", text: T.channelName(step.channel).toUpperCase() }),
        T.el("span", { className: "step-status", text: T.STEP_TEXT[status] }),
      ]);
      if (status === "active") li.setAttribute("aria-current", "step");
      return li;
    }
  }

  T.TrackerView = TrackerView;
})(window.Tacit);
