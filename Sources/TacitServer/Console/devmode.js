"use strict";
// Dev Mode: the full-screen view of one verification, live or replayed.
// Live events and replayed ones both go through handleEvent.
(function (T) {
  class DevScreen {
    constructor(root, app) {
      this.root = root;
      this.app = app;
      this.tracker = new T.TrackerView(root.querySelector("#tracker"), root.querySelector("#tracker-text"));
      this.timeline = new T.TimelineView(root.querySelector("#timeline"));
      this.waterfall = new T.WaterfallView(root.querySelector("#waterfall"));
      this.code = new T.CodeEntry("dev", (code) => this.session.check(code), (text) => app.announcer.wrongCode(text));
      root.querySelector("#dev-code-slot").appendChild(this.code.form);
      this.status = root.querySelector("#dev-status");
      // Not a live region: it counts every replayed event; the announcer says what matters.
      this.link = T.el("span", { className: "dev-link" });
      this.status.after(this.link);
      this.error = T.el("p", { className: "error", attrs: { role: "alert", id: "dev-error" } });
      this.error.hidden = true;
      root.querySelector(".toolbar").after(this.error);
      this.replayer = new T.Replayer((e) => this.handleEvent(e), (i, n, done) => this.replayProgress(i, n, done));
      this.wire();
    }

    $(selector) { return this.root.querySelector(selector); }

    wire() {
      this.$("#dev-next").addEventListener("click", () => this.act(() => this.session.next()));
      this.$("#dev-cancel").addEventListener("click", () => this.act(() => this.session.cancel()));
      this.$("#dev-export").addEventListener("click", () => this.act(() => this.exportTimeline()));
      this.$("#dev-load").addEventListener("change", (e) => this.app.loadFile(e.target));
      this.$("#replay-speed").addEventListener("change", () => this.replayer.setSpeed(this.speed));
      this.$("#dev-replay-again").addEventListener("click", () => this.beginReplay(this.doc));
      this.$("#dev-exit").addEventListener("click", () => this.app.signOut());
    }

    get speed() { return Number(this.$("#replay-speed").value); }

    /** Runs a button's action, showing the server's `detail` when it fails. */
    async act(action) {
      this.showError(null);
      try { await action(); } catch (e) { this.showError(e.message); }
    }

    showError(message) {
      this.error.textContent = message || "";
      this.error.hidden = !message;
    }

    reset(workflow, status, mode) {
      this.replayer.stop();
      this.mode = mode;
      this.root.dataset.mode = mode;
      this.model = new T.WorkflowModel(workflow, status);
      this.events = [];
      this.finalStages = null;
      this.showError(null);
      this.timeline.reset(this.model.channels);
      this.$("#dev-next").hidden = mode !== "live";
      this.$("#dev-cancel").hidden = mode !== "live";
      this.$("#dev-replay-again").hidden = mode !== "replay";
    }

    beginLive(session, number, state) {
      this.session = session;
      this.number = number;
      this.doc = null;
      this.state = state;
      this.reset(state.workflow, state.status, "live");
      this.link.textContent = "";
      this.applyState(state);
      this.focusTitle();
    }

    /** A new verification or replay starts reading at the top, unless focus is already on this screen. */
    focusTitle() {
      if (!this.root.contains(document.activeElement)) this.$("#dev-title").focus();
    }

    beginReplay(doc) {
      this.session = null;
      this.doc = doc;
      this.reset(DevScreen.replaySteps(doc), "pending", "replay");
      this.link.textContent = "Replay of an exported timeline";
      this.root.dataset.replay = "running";
      this.render();
      this.focusTitle();
      this.replayer.play(doc, this.speed);
    }

    /** The steps a replay starts from: the export's workflow, all unused. */
    static replaySteps(doc) {
      const source = (doc.summary && doc.summary.workflow) || doc.stages || [];
      const channels = source.map((s) => s.channel);
      for (const e of doc.events) {
        if (e.channel && e.channel !== "verification" && !channels.includes(e.channel)) channels.push(e.channel);
      }
      return channels.map((channel) => ({ channel, status: "unused" }));
    }

    /** The one path every event takes, live or replayed. */
    handleEvent(event) {
      this.events.push(event);
      this.timeline.add(event);
      this.model.applyEvent(event);
      this.app.announcer.event(event);
      if (this.mode === "live") this.app.phone.onEvent(event);
      this.render();
    }

    /** The server's view wins over what the events suggested. */
    applyState(state) {
      this.state = state;
      this.model.applyState(state);
      if (T.isVirtualNumber(this.number)) {
        const silent = this.model.active && this.model.active.channel === "silent_auth";
        if (silent && state.check_url) {
          this.app.phone.offerCheck({ request_id: state.request_id, check_url: state.check_url, client_token: state.client_token });
        } else if (!silent) {
          this.app.phone.closeCheck();
        }
      }
      this.render();
    }

    render() {
      const live = this.mode === "live";
      this.tracker.render(this.model);
      this.timeline.setStatuses(this.model);
      this.waterfall.render(this.finalStages || T.deriveStages(this.events, this.model), this.bounds(), this.timeline.providers());
      const active = this.model.active;
      this.followCode(live && !this.model.finished && active ? active.channel : null);
      this.app.announcer.follow(this.model);
      this.root.dataset.status = this.model.status;
      this.status.textContent = (live ? "" : "Replay · ") + this.describe();
    }

    /**
     * The code box follows the channel. Focus goes into a box that appears while nothing
     * else holds it, and to the status line when the box it was in goes away.
     */
    followCode(channel) {
      // Focus on the body means it was dropped (a pressed Verify is disabled while it waits): place it again.
      const had = this.code.hasFocus || document.activeElement === document.body;
      const before = this.code.channel;
      this.code.follow(channel);
      const idle = document.activeElement === document.body || document.activeElement === this.$("#dev-title");
      if (channel && channel !== before && (idle || had)) this.code.input.focus();
      else if (had && before && !this.code.channel) this.status.focus();
    }

    /** One sentence on where the verification stands, for the status line. */
    describe() {
      const m = this.model;
      if (m.status === "completed") {
        return "✓ Verified" + (m.winner ? " by " + T.channelName(m.winner.channel) : "") + this.elapsed();
      }
      if (m.finished) return "✗ Not verified: the verification " + (m.status === "cancelled" ? "was cancelled" : m.status) + ".";
      const risk = this.state && this.state.risk && this.state.risk.sim_swapped ? " ⚠ The SIM was changed recently." : "";
      if (!m.active) return "Starting…" + risk;
      if (m.active.channel === "silent_auth") {
        const phone = this.mode === "replay" || T.isVirtualNumber(this.number || "")
          ? "" : " No virtual phone for this number: use “Try next channel” or wait for the step to time out.";
        return "Silent auth: the phone is checking with the mobile network…" + phone + risk;
      }
      return "A code was sent " + T.channelMedium(m.active.channel) + ": waiting for it to be typed." + risk;
    }

    /** First and last event times (ms), or null before there are two. */
    bounds() {
      const times = this.events.map((e) => T.parseTime(e.at)).filter((t) => !Number.isNaN(t));
      return times.length > 1 ? { start: Math.min(...times), end: Math.max(...times) } : null;
    }

    elapsed() {
      const b = this.bounds();
      return b ? " in " + T.formatDuration(b.end - b.start) + "." : ".";
    }

    replayProgress(index, total, done) {
      this.link.textContent = done ? "Replay finished (" + total + " events)" : "Replaying: " + index + " of " + total + " events";
      if (!done) return;
      this.root.dataset.replay = "done";
      if (Array.isArray(this.doc.stages) && this.doc.stages.length) this.finalStages = T.exportStages(this.doc.stages);
      this.render();
    }

    setLink(state) {
      const words = { live: "● Live", reconnecting: "Reconnecting…", lost: "Live updates lost", closed: "Stream closed: verification finished" };
      this.link.textContent = words[state] || "";
      if (state === "lost") this.app.announcer.say("Live updates lost.");
    }

    async exportTimeline() {
      const doc = this.mode === "live" ? await this.app.api.timeline(this.session.id) : this.doc;
      const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
      const a = T.el("a", { attrs: { href: URL.createObjectURL(blob), download: "tacit-timeline-" + (doc.request_id || "export") + ".json" } });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 0);
    }

    leave() {
      this.replayer.stop();
      delete this.root.dataset.replay;
    }
  }

  T.DevScreen = DevScreen;
})(window.Tacit);
