"use strict";
// The overview: how the application's verifications performed over a period, drawn from
// the insights summary (docs/api.md#the-summary). The summary groups by one dimension at
// a time, so the funnel over time asks for the channel grouping once per slice of the period.
(function (T) {
  const HOUR = 3600 * 1000, DAY = 24 * HOUR;
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  /** Each period's slices: four-hour ones for a day, whole UTC days otherwise. */
  const PERIODS = {
    "24h": { words: "the last 24 hours", slices: 6, slice: 4 * HOUR },
    "7d": { words: "the last 7 days", slices: 7, slice: DAY },
    "30d": { words: "the last 30 days", slices: 30, slice: DAY },
  };
  const PARALLEL = 6;
  const FUNNEL = [
    { field: "starts", name: "Starts", marker: "circle", dash: "solid", series: "a" },
    { field: "sends", name: "Sends", marker: "square", dash: "dashed", series: "b" },
    { field: "conversions", name: "Conversions", marker: "triangle", dash: "dotted", series: "c" },
  ];

  const pad = (n) => String(n).padStart(2, "0");
  const dayText = (d) => d.getUTCDate() + " " + MONTHS[d.getUTCMonth()];
  const hourText = (d) => pad(d.getUTCHours()) + ":00";
  const percent = (rate) => (rate === null || rate === undefined ? "–" : Math.round(rate * 1000) / 10 + "%");
  const seconds = (s) => (s === null || s === undefined ? "–" : s + " s");
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

  /** The period's range and slices; it ends at the next whole hour (or UTC day) so nothing recent is left out. */
  T.overviewRange = function (period, now) {
    const p = PERIODS[period];
    const end = p.slice === DAY
      ? Math.floor(now / DAY) * DAY + DAY
      : Math.floor(now / HOUR) * HOUR + HOUR;
    const start = end - p.slices * p.slice;
    const slices = [];
    for (let t = start; t < end; t += p.slice) {
      const from = new Date(t), to = new Date(t + p.slice);
      slices.push({
        from, to,
        tick: p.slice === DAY ? dayText(from) : hourText(from),
        name: p.slice === DAY ? from.toISOString().slice(0, 10)
          : dayText(from) + " " + hourText(from) + "–" + hourText(to),
      });
    }
    return { from: new Date(start), to: new Date(end), slices, words: p.words };
  };

  /** Runs `jobs` (functions returning promises) at most `width` at a time, keeping their order. */
  async function inTurn(jobs, width) {
    const results = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    };
    await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
    return results;
  }

  class OverviewScreen {
    constructor(root, app) {
      this.root = root;
      this.app = app;
      this.status = root.querySelector("#overview-status");
      this.error = root.querySelector("#overview-error");
      this.headline = root.querySelector("#overview-headline");
      this.charts = root.querySelector("#overview-charts");
      this.loads = 0;
      for (const input of root.querySelectorAll("input[name=overview-period]")) {
        input.addEventListener("change", () => this.load());
      }
    }

    get period() { return this.root.querySelector("input[name=overview-period]:checked").value; }

    enter() {
      this.root.querySelector("h1").focus();
      return this.load();
    }

    async load() {
      const load = ++this.loads;
      const range = T.overviewRange(this.period, Date.now());
      this.root.dataset.state = "loading";
      this.root.setAttribute("aria-busy", "true");
      this.status.textContent = "Loading " + range.words + "…";
      this.error.hidden = true;
      try {
        const api = this.app.api;
        const whole = ["channel", "country", "provider", "prefix"]
          .map((g) => () => api.summary(range.from, range.to, g));
        const slices = range.slices.map((s) => () => api.summary(s.from, s.to, "channel"));
        const answers = await inTurn(whole.concat(slices), PARALLEL);
        if (load !== this.loads) return;
        const [byChannel, byCountry, byProvider, byPrefix] = answers;
        this.render(range, { byChannel, byCountry, byProvider, byPrefix, slices: answers.slice(4) });
        this.status.textContent = "Showing " + range.words + ": " + dayText(range.from) + " " + hourText(range.from)
          + " to " + dayText(range.to) + " " + hourText(range.to) + " UTC.";
        // Heard through the console's one live region, as every other change is.
        this.app.announcer.say("Overview of " + range.words + " loaded.");
        this.root.dataset.state = "ready";
      } catch (e) {
        if (load !== this.loads) return;
        this.status.textContent = "";
        this.error.textContent = e.message;
        this.error.hidden = false;
        this.root.dataset.state = "failed";
      } finally {
        if (load === this.loads) this.root.removeAttribute("aria-busy");
      }
    }

    render(range, data) {
      this.renderHeadline(data.byChannel.totals);
      const section = (id, title, figures) => T.el("section", {
        className: "overview-section", attrs: { "aria-labelledby": id },
      }, [T.el("h2", { text: title, attrs: { id } }), T.el("div", { className: "chart-grid" }, figures)]);
      this.charts.replaceChildren(
        section("ov-funnel", "Conversion funnel by channel", this.funnels(range, data)),
        section("ov-more", "Silent auth, providers, blocks and spend", [
          this.silent("chart-silent-country", "Silent-auth success by country", data.byCountry.groups,
            (key) => key || "No country (virtual numbers)"),
          this.silent("chart-silent-provider", "Silent-auth success by provider", data.byProvider.groups,
            (key) => key || "No provider"),
          this.providers(data.byProvider.groups),
          this.blocked(data.byPrefix.groups),
          this.spend(data.byChannel.groups),
        ]));
    }

    renderHeadline(t) {
      const spend = t.spend.length ? t.spend.map((s) => s.amount + " " + s.currency).join(", ") : "none known";
      const items = [
        ["Starts", String(t.starts)],
        ["Conversions", String(t.conversions)],
        ["Conversion rate", percent(t.conversion_rate)],
        ["Median time to verify", seconds(t.median_seconds_to_verify)],
        ["Silent-auth success", t.silent_auth.attempts ? t.silent_auth.successes + " of " + t.silent_auth.attempts
          + " (" + percent(t.silent_auth.success_rate) + ")" : "no attempts"],
        ["Blocked sends", String(t.blocked_sends)],
        ["Spend", spend],
      ];
      this.headline.replaceChildren(...items.map(([term, value]) => T.el("div", { className: "figure" }, [
        T.el("dt", { text: term }), T.el("dd", { text: value }),
      ])));
    }

    /** One chart per channel that saw anything: starts, sends and conversions per slice. */
    funnels(range, data) {
      const C = T.Charts;
      const channels = data.byChannel.groups.filter((g) => g.key && (g.starts || g.sends || g.conversions));
      if (channels.length === 0) {
        return [T.el("p", { className: "chart-empty", text: "No verification started in " + range.words + "." })];
      }
      return channels.map((group) => {
        const channel = group.key;
        const id = "chart-funnel-" + channel;
        const per = data.slices.map((answer) => answer.groups.find((g) => g.key === channel) || {});
        const series = FUNNEL.map((f) => Object.assign({ values: per.map((g) => g[f.field] || 0) }, f));
        const rows = range.slices.map((s, i) => [s.name, ...FUNNEL.map((f) => String(per[i][f.field] || 0))]);
        rows.push(["Total", String(group.starts), String(group.sends), String(group.conversions)]);
        const name = T.channelName(channel);
        const description = name + " over " + range.words + ": " + plural(group.starts, "start") + ", "
          + plural(group.sends, "send") + ", " + plural(group.conversions, "conversion")
          + " (conversion rate " + percent(group.conversion_rate) + "). Starts count the channel a workflow began on,"
          + " conversions the channel that completed it.";
        return C.figure(id, name + ": starts, sends and conversions", description,
          C.lineChart(id, range.slices.map((s) => s.tick), series, C.labelledBy(id)),
          C.table(id, name + " per period (UTC)", ["Period", "Starts", "Sends", "Conversions"], rows));
      });
    }

    silent(id, title, groups, keyName) {
      const C = T.Charts;
      const tried = groups.filter((g) => g.silent_auth.attempts > 0);
      const rows = tried.map((g) => ({
        label: keyName(g.key), value: g.silent_auth.success_rate || 0, max: 1, series: "c",
        text: g.silent_auth.successes + " of " + g.silent_auth.attempts
          + " (" + percent(g.silent_auth.success_rate) + ")",
      }));
      const description = tried.length
        ? "Silent checks that ended, and the share that confirmed the number."
        : "No silent check ended in this period" + (id.endsWith("provider")
          ? " through a named provider (the virtual operator's checks in --dev count by country and in the totals)."
          : ".");
      return C.figure(id, title, description,
        rows.length ? C.barChart(id, rows, C.labelledBy(id)) : null,
        C.table(id, title, ["Group", "Attempts", "Successes", "Success rate"],
          tried.map((g) => [keyName(g.key), String(g.silent_auth.attempts), String(g.silent_auth.successes),
            percent(g.silent_auth.success_rate)])));
    }

    /**
     * Each provider's sends and the messages its delivery receipts said were delivered, with the delivery rate
     * (of the sends a final receipt settled) and the median time from acceptance to the delivered receipt.
     */
    providers(groups) {
      const C = T.Charts;
      const id = "chart-providers";
      const used = groups.filter((g) => g.key && (g.sends || g.delivered || g.undelivered));
      const max = Math.max(1, ...used.map((g) => Math.max(g.sends, g.delivered)));
      const settled = (g) => g.delivery_rate !== null && g.delivery_rate !== undefined;
      const rows = used.flatMap((g) => [
        { label: g.key + ": sends", value: g.sends, max, series: "b", pattern: "hatch", text: String(g.sends) },
        { label: g.key + ": delivered", value: g.delivered, max, series: "c",
          text: settled(g)
            ? g.delivered + " (" + percent(g.delivery_rate) + ", median " + seconds(g.median_delivery_seconds) + ")"
            : "no receipts" },
      ]);
      const description = "Code messages each provider accepted and those its delivery receipts said were delivered:"
        + " the delivery rate counts the sends a final receipt settled, the latency is the median time from the"
        + " provider accepting a message to its delivered receipt. Providers that send no receipts (the dev inbox)"
        + " show none.";
      return C.figure(id, "Providers: delivery rate and latency", description,
        rows.length ? C.barChart(id, rows, C.labelledBy(id)) : null,
        C.table(id, "Providers", ["Provider", "Sends", "Delivered", "Undelivered", "Delivery rate",
          "Median delivery time"],
        used.map((g) => [g.key, String(g.sends), String(g.delivered), String(g.undelivered),
          percent(g.delivery_rate), seconds(g.median_delivery_seconds)])));
    }

    blocked(groups) {
      const C = T.Charts;
      const id = "chart-blocked";
      const hit = groups.filter((g) => g.blocked_sends > 0).sort((a, b) => b.blocked_sends - a.blocked_sends);
      const max = Math.max(1, ...hit.map((g) => g.blocked_sends));
      const name = (key) => key || "No prefix";
      const description = hit.length
        ? "Sends refused by fraud protection, by the number's prefix (country code and the next digits)."
        : "Fraud protection blocked no send in this period.";
      return C.figure(id, "Blocked sends by prefix", description,
        hit.length ? C.barChart(id, hit.map((g) => ({ label: name(g.key), value: g.blocked_sends, max, series: "a",
          text: String(g.blocked_sends) })), C.labelledBy(id)) : null,
        C.table(id, "Blocked sends and starts by prefix", ["Prefix", "Blocked sends", "Starts"],
          groups.map((g) => [name(g.key), String(g.blocked_sends), String(g.starts)])));
    }

    /** Spend per currency, split by channel; each currency keeps its own scale, as amounts in two never add. */
    spend(groups) {
      const C = T.Charts;
      const id = "chart-spend";
      const lines = groups.flatMap((g) => g.spend.map((s) => ({ channel: g.key, currency: s.currency,
        amount: Number(s.amount), text: s.amount })));
      lines.sort((a, b) => (a.currency === b.currency ? b.amount - a.amount : a.currency < b.currency ? -1 : 1));
      const top = {};
      for (const l of lines) top[l.currency] = Math.max(top[l.currency] || 0, l.amount);
      const patterns = ["solid", "hatch", "dots"];
      const currencies = Object.keys(top);
      const rows = lines.map((l) => ({ label: l.currency + ", " + T.channelName(l.channel), value: l.amount,
        max: top[l.currency], series: "b", pattern: patterns[currencies.indexOf(l.currency) % 3],
        text: l.text + " " + l.currency }));
      const description = lines.length
        ? "What the period's sends cost, per currency and channel; each currency is drawn to its own scale."
        : "No send in this period had a known price (from its provider or the TACIT_PRICES table).";
      return C.figure(id, "Spend per currency", description,
        rows.length ? C.barChart(id, rows, C.labelledBy(id)) : null,
        C.table(id, "Spend per currency and channel", ["Channel", "Currency", "Amount"],
          lines.map((l) => [T.channelName(l.channel), l.currency, l.text])));
    }
  }

  T.OverviewScreen = OverviewScreen;
})(window.Tacit);
