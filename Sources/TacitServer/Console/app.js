"use strict";
// The console's entry point: the sign-in form, and switching between screens.
(function (T) {
  const BRAND = "Tacit Demo";

  class App {
    constructor() {
      this.api = new T.Api("");
      this.announcer = new T.Announcer(document.getElementById("announcer"));
      this.phone = new T.PhonePanel((result) => this.screen && this.screen.onSilentResult && this.screen.onSilentResult(result));
      this.dev = new T.DevScreen(document.getElementById("dev-screen"), this);
      this.plain = new T.PlainScreen(document.getElementById("plain-screen"), this);
      this.overview = new T.OverviewScreen(document.getElementById("overview-screen"), this);
      this.form = document.getElementById("signin-form");
      this.input = document.getElementById("phone");
      this.error = document.getElementById("signin-error");
      this.form.addEventListener("submit", (e) => { e.preventDefault(); this.signIn(); });
      document.getElementById("signin-load").addEventListener("change", (e) => this.loadFile(e.target));
      this.input.addEventListener("input", () => this.previewPhone());
      this.previewPhone();
      window.addEventListener("hashchange", () => this.route());
      this.route();
      document.body.dataset.ready = "true";
    }

    async signIn() {
      const number = T.normaliseNumber(this.input.value);
      if (!number) return this.showError("Type your phone number, starting with + and the country code.");
      const devMode = document.getElementById("devmode").checked;
      const screen = devMode ? this.dev : this.plain;
      const session = new T.Session(this.api, {
        onEvent: (e) => screen.handleEvent(e),
        onState: (s) => screen.applyState(s),
        onLink: (l) => screen.setLink(l),
      });
      const submit = document.getElementById("signin-submit");
      submit.disabled = true;
      this.showError(null);
      try {
        const email = document.getElementById("email").value.trim();
        const state = await session.start(number, BRAND, email);
        this.enter(screen, session, number, state, email);
      } catch (e) {
        this.showError(e.message, e.problem && e.problem.invalid_parameters);
      } finally {
        submit.disabled = false;
      }
    }

    enter(screen, session, number, state, email) {
      this.announcer.reset();
      this.session = session;
      this.screen = screen;
      this.show(screen === this.dev ? "dev-screen" : "plain-screen");
      const slot = document.getElementById(screen === this.dev ? "dev-phone-slot" : "plain-phone-slot");
      if (T.isVirtualNumber(number)) this.phone.attach(slot, this.api, number, email);
      else this.phone.root.hidden = true;
      screen.beginLive(session, number, state);
    }

    /** The virtual phone appears beside the form as soon as the number is one of its own. */
    previewPhone() {
      const number = T.normaliseNumber(this.input.value);
      if (T.isVirtualNumber(number)) this.phone.preview(document.getElementById("signin-phone-slot"), number);
      else this.phone.root.hidden = true;
    }

    /** `#overview` shows the overview; leaving it (Back, or the browser's back) returns to sign-in. */
    route() {
      if (location.hash === "#overview") {
        this.closeSession();
        this.show("overview-screen");
        this.overview.enter();
      } else if (document.body.dataset.screen === "overview-screen") {
        this.show("signin-screen");
        this.input.focus();
      }
    }

    showError(message, invalid) {
      this.error.textContent = message || "";
      this.error.hidden = !message;
      const bad = Boolean(message) && (!invalid || invalid.some((p) => p.name === "phone_number"));
      this.input.setAttribute("aria-invalid", bad ? "true" : "false");
      if (bad) this.input.focus();
    }

    /** Reads an exported timeline from a file input and replays it in Dev Mode. */
    async loadFile(input) {
      const file = input.files && input.files[0];
      if (!file) return;
      try {
        const doc = T.parseExport(await file.text());
        this.closeSession();
        this.screen = this.dev;
        this.phone.root.hidden = true;
        this.show("dev-screen");
        this.announcer.reset();
        this.dev.beginReplay(doc);
      } catch (e) {
        if (this.screen === this.dev) this.dev.showError(e.message); else this.showError(e.message);
      } finally {
        input.value = "";
      }
    }

    /** Back to the sign-in page; a verification still pending is cancelled so the number is free again. */
    signOut() {
      if (this.session && this.session.state && this.session.state.status === "pending") {
        this.session.cancel().catch(() => {});
      }
      this.closeSession();
      this.show("signin-screen");
      this.previewPhone();
      this.input.focus();
    }

    closeSession() {
      if (this.session) this.session.close();
      this.session = null;
      if (this.screen) this.screen.leave();
    }

    show(id) {
      for (const s of ["signin-screen", "plain-screen", "dev-screen", "overview-screen"]) {
        document.getElementById(s).hidden = s !== id;
      }
      document.body.dataset.screen = id;
    }
  }

  document.addEventListener("DOMContentLoaded", () => { T.app = new App(); });
})(window.Tacit);
