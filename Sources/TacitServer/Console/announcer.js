"use strict";
// The one polite live region: says in words what a sighted person sees change
// (a channel started, a code sent, a wrong code, verified, failed), so a screen
// reader hears it without leaving what it is reading. Every screen speaks through it.
(function (T) {
  const KEEP = 8;
  const STARTED = {
    silent_auth: "Silent auth started: the phone is checking with the mobile network.",
  };

  class Announcer {
    /** `root` is a role=log region: each announcement is a new line, so none overwrites another. */
    constructor(root) {
      this.root = root;
      this.reset();
    }

    /** Forgets what was said about the last verification. */
    reset() {
      this.steps = new Map();
      this.sent = new Set();
      this.hops = new Set();
      this.status = null;
    }

    say(text) {
      if (!text) return;
      this.root.appendChild(T.el("p", { text }));
      // Old lines are already spoken; dropping them keeps the region small.
      while (this.root.childElementCount > KEEP) this.root.firstElementChild.remove();
    }

    /** Announces every step and verification change between the last model seen and `model`. */
    follow(model) {
      for (const step of model.steps) {
        const before = this.steps.get(step.channel) || "unused";
        if (before === step.status) continue;
        this.steps.set(step.channel, step.status);
        if (step.status === "active") this.say(Announcer.started(step.channel));
        else if (T.isFailedStep(step.status)) this.say(T.channelName(step.channel) + " " + T.STEP_TEXT[step.status] + ".");
      }
      if (model.status === this.status) return;
      this.status = model.status;
      if (model.status === "completed") {
        this.say("Verified" + (model.winner ? " by " + T.channelName(model.winner.channel) : "") + ".");
      } else if (model.finished) {
        this.say("Not verified: the verification " + (model.status === "cancelled" ? "was cancelled" : model.status) + ".");
      }
    }

    /** Events that change nothing in the model but do change the page: a code went out, a provider failed. */
    event(event) {
      this.provider(event);
      if (T.labelSuffix(event.label) !== "code_sent" || !event.channel || this.sent.has(event.channel)) return;
      if (this.steps.get(event.channel) !== "active") {
        this.steps.set(event.channel, "active");
        this.say(Announcer.started(event.channel));
      }
      this.sent.add(event.channel);
      this.say("A code was sent " + T.channelMedium(event.channel) + ".");
    }

    /** A message a provider could not deliver or take, and a failover to the next provider: said once each. */
    provider(event) {
      const hop = T.providerHop(event);
      if (!hop || this.hops.has(event.seq)) return;
      this.hops.add(event.seq);
      this.say(T.hopAnnouncement(hop, event.channel));
    }

    /** A code the server refused, with the attempts left when it says how many. */
    wrongCode(message) {
      this.say("Code not accepted. " + message);
    }

    static started(channel) {
      return STARTED[channel] || T.channelName(channel) + " started.";
    }
  }

  T.Announcer = Announcer;
})(window.Tacit);
