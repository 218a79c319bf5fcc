"use strict";
// Charts drawn as SVG by the console itself, readable without colour: every series has
// its own pattern, dash and marker, and every value is written beside its mark. Each
// chart comes in a figure with its numbers as a table that screen readers always reach
// and sighted people open with a "show as table" button.
(function (T) {
  const SVG = "http://www.w3.org/2000/svg";
  const WIDTH = 400;

  /** An SVG element; attributes are set one by one, never as markup or inline style. */
  function svgEl(tag, attrs, children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of children || []) if (child) node.appendChild(child);
    return node;
  }

  /** The patterns bars are filled with: solid, diagonal hatch and dots, each with an outline. */
  function patternDefs(prefix) {
    return svgEl("defs", {}, [
      svgEl("pattern", { id: prefix + "-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" }, [
        svgEl("rect", { width: 6, height: 6, class: "pat-bg" }),
        svgEl("rect", { width: 3, height: 6, class: "pat-hatch" }),
      ]),
      svgEl("pattern", { id: prefix + "-dots", width: 5, height: 5, patternUnits: "userSpaceOnUse" }, [
        svgEl("rect", { width: 5, height: 5, class: "pat-bg" }),
        svgEl("circle", { cx: 2.5, cy: 2.5, r: 1.4, class: "pat-dot" }),
      ]),
    ]);
  }

  function fillFor(prefix, pattern) {
    return pattern === "hatch" || pattern === "dots" ? "url(#" + prefix + "-" + pattern + ")" : null;
  }

  /** The root `<svg role="img">`, named by the figure's title and its one-sentence description. */
  function svgRoot(id, height, labelledBy) {
    return svgEl("svg", {
      id: id + "-svg", class: "chart-svg", role: "img", "aria-labelledby": labelledBy,
      viewBox: "0 0 " + WIDTH + " " + height, preserveAspectRatio: "xMinYMin meet", focusable: "false",
    });
  }

  /**
   * Horizontal bars, one row per item: its label above, the bar, and its value written at
   * the bar's end. `rows` are `{label, value, max, text, pattern, series}`; a row's `max`
   * lets rows of different units (currencies) each keep their own scale.
   */
  function barChart(id, rows, labelledBy) {
    const rowHeight = 40;
    const top = 6;
    const height = top + rows.length * rowHeight + 4;
    const svg = svgRoot(id, height, labelledBy);
    svg.appendChild(patternDefs(id));
    const barSpace = WIDTH - 150;
    rows.forEach((row, i) => {
      const y = top + i * rowHeight;
      const max = row.max > 0 ? row.max : 1;
      const width = row.value > 0 ? Math.max((row.value / max) * barSpace, 2) : 0;
      const series = row.series || "a";
      // A patterned bar takes its fill from the pattern: the series' colour class would override it.
      const fill = fillFor(id, row.pattern);
      const bar = svgEl("rect", { x: 0, y: y + 19, width: width, height: 14, rx: 2,
        class: fill ? "bar" : "bar bar-" + series });
      if (fill) bar.setAttribute("fill", fill);
      svg.appendChild(svgEl("g", { class: "bar-row" }, [
        text(0, y + 14, row.label, "bar-label"),
        svgEl("line", { x1: 0, x2: 0, y1: y + 16, y2: y + 36, class: "axis" }),
        bar,
        text(width + 6, y + 31, row.text, "bar-value"),
      ]));
    });
    return svg;
  }

  function text(x, y, words, cls, anchor) {
    const node = svgEl("text", { x: x, y: y, class: cls });
    if (anchor) node.setAttribute("text-anchor", anchor);
    node.textContent = words;
    return node;
  }

  const MARKERS = {
    circle: (x, y) => svgEl("circle", { cx: x, cy: y, r: 3.5 }),
    square: (x, y) => svgEl("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7 }),
    triangle: (x, y) => svgEl("path", { d: "M" + x + " " + (y - 4.5) + "l4.5 8h-9z" }),
  };

  /**
   * Lines over time, one per series `{name, values, marker, dash, series}` over the
   * `labels` of the x axis; each line ends in its name and last value, written beside it,
   * nudged apart when lines end close together.
   */
  function lineChart(id, labels, series, labelledBy) {
    const height = 190;
    const left = 30, right = WIDTH - 126, top = 12, bottom = height - 34;
    const svg = svgRoot(id, height, labelledBy);
    const max = Math.max(1, ...series.flatMap((s) => s.values));
    const step = labels.length > 1 ? (right - left) / (labels.length - 1) : 0;
    const x = (i) => (labels.length > 1 ? left + i * step : (left + right) / 2);
    const y = (v) => bottom - (v / max) * (bottom - top);
    svg.appendChild(svgEl("line", { x1: left, x2: right, y1: bottom, y2: bottom, class: "axis" }));
    svg.appendChild(svgEl("line", { x1: left, x2: right, y1: top, y2: top, class: "grid" }));
    svg.appendChild(text(left - 5, bottom + 4, "0", "tick", "end"));
    svg.appendChild(text(left - 5, top + 4, String(max), "tick", "end"));
    // More than four ticks would overlap on a phone: then the first, the middle and the last.
    const last = labels.length - 1;
    const ticks = labels.length <= 4 ? labels.map((_, i) => i) : [0, Math.floor(last / 2), last];
    for (const i of ticks) {
      const anchor = labels.length === 1 ? "middle" : i === 0 ? "start" : i === labels.length - 1 ? "end" : "middle";
      svg.appendChild(text(x(i), bottom + 18, labels[i], "tick", anchor));
    }
    const ends = [];
    series.forEach((s) => {
      const points = s.values.map((v, i) => x(i) + "," + y(v)).join(" ");
      const group = svgEl("g", { class: "line line-" + s.series }, [
        svgEl("polyline", { points: points, class: "line-path dash-" + s.dash }),
        ...s.values.map((v, i) => MARKERS[s.marker](x(i), y(v))),
      ]);
      svg.appendChild(group);
      ends.push({ y: y(s.values[s.values.length - 1] || 0), words: s.name + " " + (s.values[s.values.length - 1] || 0),
        series: s.series, marker: s.marker });
    });
    // Direct labels at the right end, kept at least a line apart so none hides another.
    ends.sort((a, b) => a.y - b.y);
    for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + 15);
    const overflow = ends.length ? ends[ends.length - 1].y - (bottom + 4) : 0;
    if (overflow > 0) for (const e of ends) e.y -= overflow;
    for (const e of ends) {
      svg.appendChild(svgEl("g", { class: "line line-" + e.series }, [MARKERS[e.marker](right + 12, e.y)]));
      svg.appendChild(text(right + 20, e.y + 4, e.words, "end-label"));
    }
    return svg;
  }

  /** A table of the chart's numbers: `columns` are headings, `rows` arrays of cells (first is the row's header). */
  function table(id, caption, columns, rows) {
    return T.el("table", { className: "chart-table", attrs: { id: id + "-table" } }, [
      T.el("caption", { text: caption }),
      T.el("thead", {}, [T.el("tr", {}, columns.map((c) => T.el("th", { text: c, attrs: { scope: "col" } })))]),
      T.el("tbody", {}, rows.map((cells) => T.el("tr", {}, cells.map((cell, i) => (i === 0
        ? T.el("th", { text: cell, attrs: { scope: "row" } })
        : T.el("td", { text: cell })))))),
    ]);
  }

  /**
   * One chart as a figure: its title, a sentence saying what it shows, the picture (or a
   * sentence when there is nothing to draw), and its table. The table is always in the page
   * for screen readers; "Show as table" shows it to everyone.
   */
  function figure(id, title, description, picture, tableNode) {
    const titleId = id + "-title", descId = id + "-desc";
    const wrap = T.el("div", { className: "chart-table-wrap visually-hidden", attrs: { id: id + "-numbers" } },
      [tableNode]);
    const toggle = T.el("button", { className: "table-toggle", text: "Show as table",
      attrs: { type: "button", "aria-expanded": "false", "aria-controls": id + "-numbers" } });
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      toggle.textContent = open ? "Hide table" : "Show as table";
      wrap.classList.toggle("visually-hidden", !open);
      // A shown table may scroll sideways on a phone: it is then a named region that takes focus,
      // so the keyboard can scroll it; hidden, it is only the table screen readers read.
      const scrolling = { tabindex: "0", role: "region", "aria-label": title + ": table" };
      for (const [name, value] of Object.entries(scrolling)) {
        if (open) wrap.setAttribute(name, value); else wrap.removeAttribute(name);
      }
    });
    return T.el("figure", { className: "chart", attrs: { id: id } }, [
      T.el("h3", { text: title, attrs: { id: titleId } }),
      T.el("p", { className: "chart-desc", text: description, attrs: { id: descId } }),
      picture,
      toggle,
      wrap,
    ]);
  }

  /** What a chart's `<svg role="img">` is named by: its figure's title and description. */
  const labelledBy = (id) => id + "-title " + id + "-desc";

  T.Charts = { barChart, lineChart, table, figure, labelledBy };
})(window.Tacit);
