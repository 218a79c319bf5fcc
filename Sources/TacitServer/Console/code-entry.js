"use strict";
// The code box: follows the current channel ("Enter the code we sent by SMS").
(function (T) {
  class CodeEntry {
    /**
     * `prefix` keeps ids unique when two screens each have a code box; `onWrong(text)`
     * hears each refusal, for the live region (the error itself is not a second live region).
     * `heading` is "h1" where the box is the whole page (the plain flow), "h2" beside a timeline.
     */
    constructor(prefix, onSubmit, onWrong, heading) {
      this.onSubmit = onSubmit;
      this.onWrong = onWrong || (() => {});
      this.title = T.el(heading || "h2", { className: "code-title", attrs: { id: prefix + "-code-title" } });
      this.input = T.el("input", {
        className: "code-input",
        attrs: { id: prefix + "-code", name: "code", type: "text", inputmode: "numeric",
          autocomplete: "one-time-code", pattern: "[0-9]*", maxlength: "10", required: "",
          "aria-describedby": prefix + "-code-error" },
      });
      this.error = T.el("p", { className: "error", attrs: { id: prefix + "-code-error" } });
      this.button = T.el("button", { className: "primary", text: "Verify", attrs: { type: "submit", id: prefix + "-code-submit" } });
      this.form = T.el("form", {
        className: "code-entry", attrs: { "aria-labelledby": prefix + "-code-title", novalidate: "" },
      }, [
        this.title,
        T.el("label", { text: "Verification code", attrs: { for: prefix + "-code" } }),
        T.el("div", { className: "code-row" }, [this.input, this.button]),
        this.error,
      ]);
      this.error.hidden = true;
      this.form.hidden = true;
      this.form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
    }

    /** Shows the box for a code channel; hides it for silent auth or when nothing is active. */
    follow(channel) {
      const wanted = channel && channel !== "silent_auth";
      if (wanted && this.channel !== channel) {
        this.title.textContent = "Enter the code we sent " + T.channelMedium(channel);
        this.input.value = "";
        this.setError(null);
      }
      this.channel = wanted ? channel : null;
      this.form.hidden = !wanted;
      this.form.dataset.channel = this.channel || "";
    }

    /** True while focus is inside the box, so hiding it would drop focus on the page. */
    get hasFocus() { return this.form.contains(document.activeElement); }

    setError(message) {
      this.error.textContent = message || "";
      this.error.hidden = !message;
      this.input.setAttribute("aria-invalid", message ? "true" : "false");
    }

    async submit() {
      const code = this.input.value.replace(/\s/g, "");
      if (!/^\d{4,10}$/.test(code)) return this.refuse("Type the 4 to 10 digit code.");
      this.button.disabled = true;
      try {
        await this.onSubmit(code);
        this.setError(null);
      } catch (e) {
        this.refuse(CodeEntry.message(e));
      } finally {
        this.button.disabled = false;
      }
    }

    refuse(message) {
      this.setError(message);
      this.onWrong(message);
      // Back to the box with the digits selected: the next try is typed straight over them.
      this.input.focus();
      this.input.select();
    }

    static message(error) {
      const p = (error && error.problem) || {};
      let text = error.message || "That didn't work.";
      if (typeof p.attempts_remaining === "number") {
        text += " " + p.attempts_remaining + (p.attempts_remaining === 1 ? " attempt" : " attempts") + " left.";
      }
      return text;
    }
  }

  T.CodeEntry = CodeEntry;
})(window.Tacit);
