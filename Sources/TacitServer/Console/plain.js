"use strict";
// The sign-in as a product would show it: "checking…", a code box if the silent
// check falls back, then "verified". No timeline.
(function (T) {
  const HOW = {
    silent_auth: "through your mobile network, with nothing to type",
    sms: "with the code we sent by SMS",
    voice: "with the code from the voice call",
    whatsapp: "with the code we sent on WhatsApp",
  };
  const FAILED = {
    failed: "Too many attempts, or none of the ways to reach your phone worked.",
    expired: "The code expired before it was entered.",
    cancelled: "The sign-in was cancelled.",
  };

  class PlainScreen {
    constructor(root, app) {
      this.root = root;
      this.app = app;
      this.code = new T.CodeEntry("plain-entry", (code) => this.session.check(code), (text) => app.announcer.wrongCode(text), "h1");
      this.another = T.el("button", { className: "link", text: "Send the code another way", attrs: { type: "button", id: "plain-another" } });
      this.another.addEventListener("click", () => this.next());
      const codeView = root.querySelector("#plain-code");
      codeView.append(this.code.form, this.another);
      this.instead = T.el("button", { className: "link", text: "Send me a code instead", attrs: { type: "button", id: "plain-instead" } });
      this.instead.addEventListener("click", () => this.next());
      root.querySelector("#plain-checking").append(this.instead);
      root.querySelectorAll(".plain-restart").forEach((b) => b.addEventListener("click", () => this.app.signOut()));
      this.error = root.querySelector("#plain-error");
    }

    beginLive(session, number, state) {
      this.session = session;
      this.number = number;
      this.skipped = false;
      this.current = null;
      this.instead.hidden = true;
      this.showError(null);
      this.root.querySelectorAll(".plain-number").forEach((n) => { n.textContent = T.maskNumber(number); });
      this.applyState(state);
    }

    handleEvent(event) {
      this.app.announcer.event(event);
      if (T.isVirtualNumber(this.number)) this.app.phone.onEvent(event);
    }

    applyState(state) {
      const model = new T.WorkflowModel(state.workflow, state.status);
      this.root.dataset.status = model.status;
      this.app.announcer.follow(model);
      if (model.status === "completed") return this.view("done", model);
      if (model.finished) return this.view("failed", model);
      const active = model.active;
      if (!active || active.channel === "silent_auth") return this.silent(state);
      this.app.phone.closeCheck();
      this.code.follow(active.channel);
      this.view("code", model);
    }

    /** A browser can't reach the mobile network for a real number, so only the virtual phone tries. */
    silent(state) {
      this.view("checking");
      if (!T.isVirtualNumber(this.number)) {
        if (!this.skipped) { this.skipped = true; this.next(); }
        return;
      }
      if (state.check_url) {
        this.app.phone.offerCheck({ request_id: state.request_id, check_url: state.check_url, client_token: state.client_token });
      }
    }

    /** The virtual phone's answer: when it couldn't run the check, offer a code now. */
    onSilentResult(result) {
      this.instead.hidden = result.result === "submitted";
    }

    view(name, model) {
      for (const v of ["checking", "code", "done", "failed"]) this.root.querySelector("#plain-" + v).hidden = v !== name;
      this.root.dataset.view = name;
      if (name !== this.current) this.focusView(name);
      this.current = name;
      if (name === "done") {
        this.root.querySelector("#plain-done-how").textContent = HOW[model.winner && model.winner.channel] || "";
        this.app.phone.closeCheck();
      }
      if (name === "failed") {
        this.root.querySelector("#plain-failed-detail").textContent = FAILED[model.status] || "Please try again.";
      }
      if (name === "code") this.another.hidden = model.steps[model.steps.length - 1].status === "active";
    }

    /** Each new view takes focus, as a new page would: the code box, or the view's heading. */
    focusView(name) {
      if (name === "code") this.code.input.focus();
      else this.root.querySelector("#plain-" + name + " h1").focus();
    }

    async next() {
      this.showError(null);
      try { await this.session.next(); } catch (e) { this.showError(e.message); }
    }

    showError(message) {
      this.error.textContent = message || "";
      this.error.hidden = !message;
    }

    setLink() {}
    leave() {}
  }

  T.PlainScreen = PlainScreen;
})(window.Tacit);
