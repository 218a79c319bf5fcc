"use strict";
// The console's model of a verification: workflow steps and overall status.
// Live, the server's GET state is the truth; events move the model forward
// in between (and are the only source during a replay).
(function (T) {
  const STEP_BY_SUFFIX = {
    started: "active", completed: "completed", failed: "failed", rejected: "rejected",
    timed_out: "expired", expired: "expired", skipped: "failed",
  };
  const FINAL = ["completed", "failed", "expired", "cancelled"];

  // The server's wire names for how a step ends: copies of TacitCore's StepEndLabel
  // and EndReason tables, which the server's tests compare with these lists.
  T.STEP_END_LABELS = ["timed_out", "failed", "rejected", "skipped", "cancelled"];
  T.END_REASONS = [
    "timeout", "rejected", "carrier_error", "no_coverage", "device_not_cellular", "check_url_replayed",
    "check_url_expired", "integrity_error", "unavailable", "skipped", "cancelled", "too_many_attempts",
    "sim_swapped", "provider_error", "no_provider", "rate_limited", "destination_denied",
    "fixed_line", "test_number", "geo",
  ];

  /** Labels whose event may change a step or the verification: re-read the state after them. */
  T.isStepChange = (event) => {
    const suffix = T.labelSuffix(event.label);
    return !event.channel || event.channel === "verification"
      || suffix in STEP_BY_SUFFIX || suffix === "code_checked" || suffix === "cancelled";
  };

  T.isFinalStatus = (status) => FINAL.includes(status);

  /** How far a step has gone: 0 unused, 1 active, 2 ended (however it ended). */
  const stage = (status) => (status === "unused" ? 0 : status === "active" ? 1 : 2);

  class WorkflowModel {
    constructor(workflow, status) {
      this.steps = (workflow || []).map((s) => ({ channel: s.channel, status: s.status || "unused" }));
      this.status = status || "pending";
    }

    get channels() { return this.steps.map((s) => s.channel); }
    get active() { return this.steps.find((s) => s.status === "active") || null; }
    get winner() { return this.steps.find((s) => s.status === "completed") || null; }
    get finished() { return T.isFinalStatus(this.status); }

    /**
     * Takes the server's view (GET state or the summary event), except where it is older
     * than what the model already shows: a read sent before some events can answer after
     * them, and a step never goes back (unused, active, ended), nor a finished verification.
     */
    applyState(state) {
      if (Array.isArray(state.workflow)) {
        const steps = new WorkflowModel(state.workflow).steps;
        this.steps.forEach((known, index) => {
          const read = steps[index];
          if (!read) steps.push(known);
          else if (read.channel === known.channel && stage(known.status) > stage(read.status)) read.status = known.status;
        });
        this.steps = steps;
      }
      if (state.status && !(this.finished && !T.isFinalStatus(state.status))) this.status = state.status;
    }

    /** Moves the model forward from one event; returns true when something changed. */
    applyEvent(event) {
      if (event.label === "verification:summary" && event.data && Array.isArray(event.data.workflow)) {
        this.applyState({ workflow: event.data.workflow, status: event.data.status });
        return true;
      }
      const suffix = T.labelSuffix(event.label);
      if (!event.channel || event.channel === "verification") {
        if (!FINAL.includes(suffix)) return false;
        this.status = suffix;
        if (suffix === "expired") this.steps.forEach((s) => { if (s.status === "active") s.status = "expired"; });
        return true;
      }
      const step = this.steps.find((s) => s.channel === event.channel);
      const next = STEP_BY_SUFFIX[suffix];
      if (!step || !next || (step.status !== "unused" && step.status !== "active")) return false;
      step.status = next;
      return true;
    }
  }

  T.WorkflowModel = WorkflowModel;
})(window.Tacit);
