"use strict";
// The HTTP contract the console speaks (docs/api.md), one method per route.
(function (T) {
  /** A failed call: `problem` is the server's problem+json (its `detail` is shown to people). */
  class ApiError extends Error {
    constructor(status, problem) {
      super((problem && (problem.detail || problem.title)) || "The server answered " + status + ".");
      this.status = status;
      this.problem = problem || {};
    }
  }

  class Api {
    constructor(base) { this.base = base || ""; }

    async request(method, path, body) {
      const init = { method, headers: { Accept: "application/json" } };
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      let res;
      try {
        res = await fetch(this.base + path, init);
      } catch (e) {
        throw new ApiError(0, { detail: "Can't reach the Tacit server." });
      }
      if (res.status === 204) return null;
      const text = await res.text();
      let json = null;
      try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
      if (!res.ok) throw new ApiError(res.status, json && typeof json === "object" ? json : null);
      return json;
    }

    verificationPath(id) { return "/v1/verifications/" + encodeURIComponent(id); }
    handsetPath(number) { return "/v1/dev/handsets/" + encodeURIComponent(number); }

    /** With an email address, the default workflow gains a last email step (docs/api.md#email-steps). */
    start(phoneNumber, brand, email) {
      const body = { phone_number: phoneNumber, brand };
      if (email) {
        body.workflow = [{ channel: "silent_auth" }, { channel: "sms" }, { channel: "voice" }, { channel: "email", to: email }];
      }
      return this.request("POST", "/v1/verifications", body);
    }
    state(id) { return this.request("GET", this.verificationPath(id)); }
    check(id, code) { return this.request("POST", this.verificationPath(id) + "/check", { code }); }
    next(id) { return this.request("POST", this.verificationPath(id) + "/next", {}); }
    cancel(id) { return this.request("DELETE", this.verificationPath(id)); }
    /** Every event after `after`: the server answers in pages, each naming where the next starts. */
    async events(id, after) {
      const events = [];
      let cursor = after || 0;
      for (;;) {
        const page = await this.request("GET", this.verificationPath(id) + "/events?after=" + cursor);
        events.push(...((page && page.events) || []));
        const next = page && page.next_after;
        if (typeof next !== "number" || next <= cursor) return { events };
        cursor = next;
      }
    }
    eventsURL(id) { return this.base + this.verificationPath(id) + "/events"; }
    timeline(id) { return this.request("GET", this.verificationPath(id) + "/timeline"); }
    inbox(number) { return this.request("GET", this.handsetPath(number) + "/inbox"); }
    mailbox(address) { return this.request("GET", "/v1/dev/mailboxes/" + encodeURIComponent(address) + "/inbox"); }
    /** The insights summary (docs/api.md#the-summary) for [from, to), grouped by one dimension. */
    summary(from, to, groupBy) {
      const q = "from=" + encodeURIComponent(from.toISOString()) + "&to=" + encodeURIComponent(to.toISOString())
        + "&group_by=" + encodeURIComponent(groupBy);
      return this.request("GET", "/v1/insights/summary?" + q);
    }
    silentCheck(number, check) {
      return this.request("POST", this.handsetPath(number) + "/silent-check", check);
    }
  }

  T.Api = Api;
  T.ApiError = ApiError;
})(window.Tacit);
