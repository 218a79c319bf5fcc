"use strict";
// The virtual phone for +990 numbers (dev servers only): the handset's inbox, the
// mailbox of the address an email step writes to, and the silent check run "by the
// phone" over the operator's cellular path.
// The server plays the phone's modem, so the browser never sees the silent code.
(function (T) {
  const MAX_SHOWN = 4;

  class PhonePanel {
    constructor(onResult) {
      this.onResult = onResult || (() => {});
      this.numberText = T.el("p", { className: "phone-number" });
      this.netIndicator = T.el("span", { className: "net-indicator" });
      this.silentStatus = T.el("p", { className: "silent-status", attrs: { role: "status", tabindex: "-1" } });
      this.runButton = T.el("button", { text: "Run silent check", attrs: { type: "button", id: "phone-run" } });
      this.inbox = T.el("ol", { className: "inbox", attrs: { "aria-live": "polite" } });
      this.inboxEmpty = T.el("p", { className: "inbox-empty", text: "No messages yet." });
      this.mail = T.el("ol", { className: "inbox mail", attrs: { "aria-live": "polite" } });
      this.mailEmpty = T.el("p", { className: "inbox-empty", text: "No email yet." });
      this.mailSection = T.el("section", { className: "phone-mail", attrs: { "aria-labelledby": "phone-mail-title" } }, [
        T.el("h3", { text: "Email", attrs: { id: "phone-mail-title" } }), this.mailEmpty, this.mail,
      ]);
      this.root = T.el("aside", { className: "phone", attrs: { id: "virtual-phone", "aria-label": "Virtual phone" } }, [
        T.el("h2", { className: "phone-caption", text: "Virtual phone (dev servers only)" }),
        T.el("div", { className: "phone-frame" }, [
          T.el("div", { className: "phone-bar" }, [T.el("span", { text: "Virtual operator" }), this.netIndicator]),
          this.numberText,
          this.networkToggle(),
          T.el("section", { className: "phone-silent" }, [
            T.el("h3", { text: "Silent check" }), this.silentStatus, this.runButton,
          ]),
          T.el("section", { className: "phone-inbox" }, [
            T.el("h3", { text: "Messages" }), this.inboxEmpty, this.inbox,
            T.el("button", { className: "link", text: "Refresh inbox", attrs: { type: "button", id: "phone-refresh" } }),
          ]),
          this.mailSection,
        ]),
      ]);
      this.runButton.addEventListener("click", () => this.run());
      this.root.querySelector("#phone-refresh").addEventListener("click", () => this.refreshInbox());
      this.updateNetwork();
    }

    networkToggle() {
      const option = (value, text, checked) => T.el("span", { className: "net-option" }, [
        T.el("input", { attrs: Object.assign({ type: "radio", name: "phone-net", id: "phone-net-" + value, value },
          checked ? { checked: "" } : {}) }),
        T.el("label", { text, attrs: { for: "phone-net-" + value } }),
      ]);
      const set = T.el("fieldset", { className: "net-toggle" }, [
        T.el("legend", { text: "Phone connects over" }),
        option("cellular", "Cellular", true), option("wifi", "Wi-Fi", false),
      ]);
      set.addEventListener("change", () => this.updateNetwork());
      return set;
    }

    get path() { return this.root.querySelector("#phone-net-wifi").checked ? "wifi" : "cellular"; }

    updateNetwork() {
      this.netIndicator.textContent = this.path === "wifi" ? "Wi-Fi" : "Cellular ▂▄▆";
    }

    /** Shows the phone before sign-in, so its network can be chosen first; talks to nobody yet. */
    preview(slot, number, email) {
      slot.appendChild(this.root);
      this.root.hidden = false;
      this.api = null;
      this.number = number;
      this.check = null;
      this.since = NaN;
      this.numberText.textContent = T.maskNumber(number);
      this.inbox.replaceChildren();
      this.inboxEmpty.hidden = false;
      this.email = email || "";
      this.mail.replaceChildren();
      this.mailEmpty.hidden = false;
      this.mailSection.hidden = !this.email;
      this.setSilent("Waiting for a check link from the app.", "idle");
      this.runButton.disabled = true;
    }

    /** Moves the panel into a screen's slot and starts over for a number (and the address of its email step). */
    attach(slot, api, number, email) {
      this.preview(slot, number, email);
      this.api = api;
      this.refreshInbox();
    }

    /** The app hands the phone its check link; the phone opens it at once. */
    offerCheck(check) {
      if (this.check && this.check.check_url === check.check_url) return;
      this.check = check;
      this.runButton.disabled = false;
      this.run();
    }

    /** The silent step is over: nothing left for the phone to run. */
    closeCheck() {
      if (document.activeElement === this.runButton) this.silentStatus.focus();
      this.runButton.disabled = true;
    }

    async run() {
      if (!this.check) return;
      // Disabling the focused button drops focus on the page: it comes back when the run ends.
      const pressed = document.activeElement === this.runButton;
      this.runButton.disabled = true;
      this.setSilent("Opening the check link over " + (this.path === "wifi" ? "Wi-Fi" : "the mobile network") + "…", "running");
      let result;
      try {
        result = await this.api.silentCheck(this.number, Object.assign({ path: this.path }, this.check));
      } catch (e) {
        result = { result: "failed", reason: e.message };
      }
      this.showResult(result);
      if (pressed) (this.runButton.disabled ? this.silentStatus : this.runButton).focus();
      this.onResult(result);
    }

    showResult(r) {
      if (r.result === "submitted") {
        this.setSilent("✓ Done: the phone opened the link over the mobile network and handed the operator's answer to Tacit.", "ok");
        return;
      }
      this.runButton.disabled = false;
      if (r.result === "client_error") {
        const hint = r.name === "device_not_cellular" ? " Switch to Cellular and run it again, or use a code." : "";
        this.setSilent("✗ " + (r.message || "The phone couldn't run the check.") + " (" + r.name + ")" + hint, "bad");
      } else {
        this.setSilent("✗ The check didn't go through: " + (r.reason || "unknown reason") + ".", "bad");
      }
    }

    setSilent(text, state) {
      this.silentStatus.textContent = text;
      this.silentStatus.dataset.state = state;
    }

    /** Events tell the phone when this verification began (server clock) and when a code went out. */
    onEvent(event) {
      const at = T.parseTime(event.at);
      if (!(at >= this.since)) this.since = at;
      if (T.labelSuffix(event.label) === "code_sent") this.refreshInbox();
    }

    async refreshInbox() {
      if (!this.api) return;
      const number = this.number;
      let messages;
      try { messages = ((await this.api.inbox(number)) || {}).messages || []; } catch (e) { return; }
      if (number !== this.number) return;
      // Newest first, and only the last few: the handset keeps messages from earlier sign-ins.
      const recent = messages.slice(-MAX_SHOWN).reverse();
      this.inbox.replaceChildren(...recent.map((m) => this.message(m)));
      this.inboxEmpty.hidden = messages.length > 0;
      await this.refreshMail();
    }

    /** The email step's mailbox: each message's subject above its text. */
    async refreshMail() {
      if (!this.api || !this.email) return;
      const email = this.email;
      let messages;
      try { messages = ((await this.api.mailbox(email)) || {}).messages || []; } catch (e) { return; }
      if (email !== this.email) return;
      const recent = messages.slice(-MAX_SHOWN).reverse();
      this.mail.replaceChildren(...recent.map((m) => {
        const item = this.message(m);
        item.insertBefore(T.el("p", { className: "message-subject", text: m.subject || "" }), item.lastChild);
        return item;
      }));
      this.mailEmpty.hidden = messages.length > 0;
    }

    /** Messages sent since this verification began are marked new, in words as well as colour. */
    message(m) {
      const fresh = T.parseTime(m.at) >= this.since;
      return T.el("li", { className: "message " + T.channelClass(m.channel) + (fresh ? " is-new" : "") }, [
        T.el("span", { className: "message-channel", text: T.channelName(m.channel) + (fresh ? " · new" : "") }),
        T.el("p", { className: "message-body", text: m.body }),
      ]);
    }
  }

  T.PhonePanel = PhonePanel;
})(window.Tacit);
