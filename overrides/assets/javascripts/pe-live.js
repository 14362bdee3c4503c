// The explorers of the site: the table on formula and wavelength, start here's clock hands, RoPE on relative, ALiBi
// and T5's buckets and RoPE's context extension on relative-schemes. No dependencies, no network; every chart is
// SVG drawn here, in Material's colour variables (both schemes, no redraw when the scheme changes).
//
// This file is the one frame they share:
// - the checks of what a reader can type, choose or open (a field, the page's address) and their messages, in one
//   table (MESSAGES): the English ones read as pe_docs' own where pe_docs has the check (tests/test_live_frame.py
//   compares them), the Chinese ones say the same; the frequencies w_i = base^(−2i/d);
// - one explorer (peDocs.live.mount): labelled fields, each number field stating its range and stepped by the arrow
//   keys (Shift: ten steps); a message in place of the views for a bad setting; a change that puts another field
//   out of its range adapts that field and says so, or names it beside the message and keeps the figures; a summary
//   that states the plot's key numbers as text; the settings kept in the page's address (query parameters
//   `<kind>.<setting>`, written as the reader changes them; opening the address restores them);
// - small SVG charts (peDocs.live.chart).
// Each explorer is its own file, pe-live-<kind>.js, that calls peDocs.live.register(kind, spec) and adds its own
// computations to window.peDocs (tests/test_live_<kind>.py compare them with pe_docs in a real browser).
// overrides/main.html loads this file and the explorers of a page that embeds <div class="pe-live"
// data-kind="<kind>" id=… data-…>; the div's own text (what the still figures show) is what a reader without
// JavaScript sees.
(function () {
  "use strict";

  const peDocs = (window.peDocs = window.peDocs || {});

  // ---- values as Python prints them ---------------------------------------------------------------------------

  // repr() of a setting as Python holds it: a whole number as an int (7), another as a float (2.5, 1e-05, inf);
  // text as 'text'.
  const show = (value) => typeof value !== "number" ? `'${value}'`
    : Number.isInteger(value) ? String(value) : pyFloat(value);
  // repr() of a Python float (what pe_docs holds after check_real): 1.0, 0.5, 1e-05, 1e+16, -inf (a field's NaN is
  // refused as empty).
  function pyFloat(x) {
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    const a = Math.abs(x);
    const exponent = (_, sign, digit) => `e${sign}0${digit}`; // two digits at least, as Python
    if (a && (a < 1e-4 || a >= 1e16)) return x.toExponential().replace(/e([+-])(\d)$/, exponent);
    return Number.isInteger(x) ? x.toFixed(1) : String(x);
  }

  // ---- every message a field can raise, keyed by rule: e = {argument, value, limit} ------------------------------

  const MESSAGES = {
    en: {
      integer: (e) => `${e.argument} must be an integer, got ${show(e.value)} of type float`, // a number, not whole
      min: (e) => `${e.argument} must be >= ${e.limit}, got ${show(e.value)}`,
      above: (e) => `${e.argument} must be > ${e.limit}, got ${show(e.value)}`,
      max: (e) => `${e.argument} must be <= ${e.limit} in this explorer, got ${show(e.value)}`,
      even: (e) => `${e.argument} must be even (each frequency fills one sin and one cos column), got ${show(e.value)}`,
      finite: (e) => `${e.argument} must be finite, got ${show(e.value)}`,
      positive: (e) => `${e.argument} must be finite and > 0, got ${show(e.value)}`,
      empty: (e) => `${e.argument} is empty or not a number`,
      choice: (e) => `${e.argument} must be one of ${e.limit}; got ${show(e.value)}`,
      below: (e) => `${e.argument} must be < max_len = ${e.limit}, got ${show(e.value)}`,
      column: (e) => `columns must be integers from 0 to d_model - 1 = ${e.limit}, got ${e.value}`,
      count: (e) => `columns must list 1 to 3 column numbers, got ${e.value}`,
      head: (e) => `${e.argument} must be between 1 and n_heads = ${e.limit}, got ${show(e.value)}`,
      evenBuckets: (e) => `${e.argument} must be even when bidirectional, got ${show(e.value)}`,
      ntk: (e) => `${e.argument} must be >= 4 for the NTK-aware base (exponent d/(d-2)), got ${show(e.value)}`,
      yarnBase: (e) => `${e.argument} must be > 1 for YaRN (the frequencies must decrease), got ${show(e.value)}`,
      belowFast: (e) => `${e.argument} must be <= beta_fast=${pyFloat(e.limit)}, got ${pyFloat(e.value)}`,
      aboveLow: (e) => `${e.argument} must be > low_freq_factor=${pyFloat(e.limit)}, got ${show(e.value)}`,
      adjusted: (name, from, to, why) => `${name} changed from ${from} to ${to}: ${why}.`,
    },
    zh: {
      integer: (e) => `${e.argument} 必须是整数，收到的是 ${show(e.value)}`,
      min: (e) => `${e.argument} 必须 ≥ ${e.limit}，收到的是 ${show(e.value)}`,
      above: (e) => `${e.argument} 必须 > ${e.limit}，收到的是 ${show(e.value)}`,
      max: (e) => `${e.argument} 在这个交互演示里最大为 ${e.limit}，收到的是 ${show(e.value)}`,
      even: (e) => `${e.argument} 必须是偶数（每个频率占一列正弦、一列余弦），收到的是 ${show(e.value)}`,
      finite: (e) => `${e.argument} 必须是有限数，收到的是 ${show(e.value)}`,
      positive: (e) => `${e.argument} 必须是有限的正数，收到的是 ${show(e.value)}`,
      empty: (e) => `${e.argument} 为空或不是数字`,
      choice: (e) => `${e.argument} 必须是 ${e.limit} 之一，收到的是 ${show(e.value)}`,
      below: (e) => `${e.argument} 必须小于 max_len = ${e.limit}，收到的是 ${show(e.value)}`,
      column: (e) => `columns 中的列号必须是 0 到 d_model − 1 = ${e.limit} 之间的整数，收到的是 ${e.value}`,
      count: (e) => `columns 需要 1 到 3 个列号，收到的是 ${e.value}`,
      head: (e) => `${e.argument} 必须在 1 到 n_heads = ${e.limit} 之间，收到的是 ${show(e.value)}`,
      evenBuckets: (e) => `双向（bidirectional）时 ${e.argument} 必须是偶数，收到的是 ${show(e.value)}`,
      ntk: (e) => `${e.argument} 必须 ≥ 4（NTK-aware 底数的指数是 d/(d−2)），收到的是 ${show(e.value)}`,
      yarnBase: (e) => `YaRN 要求 ${e.argument} > 1（频率必须递减），收到的是 ${show(e.value)}`,
      belowFast: (e) => `${e.argument} 不能大于 beta_fast = ${pyFloat(e.limit)}，收到的是 ${pyFloat(e.value)}`,
      aboveLow: (e) => `${e.argument} 必须大于 low_freq_factor = ${pyFloat(e.limit)}，收到的是 ${show(e.value)}`,
      adjusted: (name, from, to, why) => `${name} 已从 ${from} 改为 ${to}：${why}。`,
    },
  };

  // A bad setting, with its message in English (`more`: `fix`, the nearest good value, which the frame adapts a field
  // to; `field`, if not the argument).
  function argumentError(rule, argument, value, limit, more) {
    return Object.assign(new Error(MESSAGES.en[rule]({ argument, value, limit })), { rule, argument, value, limit },
      more);
  }

  // ---- checks of a number, as pe_docs/_checks.py --------------------------------------------------------------

  function checkInt(name, value, minimum = -Infinity) {
    if (!Number.isInteger(value)) throw argumentError("integer", name, value);
    if (value < minimum) throw argumentError("min", name, value, minimum, { fix: minimum });
    return value;
  }

  function checkEven(value, name) {
    if (checkInt(name, value, 1) % 2) throw argumentError("even", name, value);
    return value;
  }

  function checkReal(name, value, minimum = -Infinity, open = false) {
    if (!Number.isFinite(value)) throw argumentError("finite", name, value);
    if (open ? value <= minimum : value < minimum) {
      throw argumentError(open ? "above" : "min", name, value, pyFloat(minimum), open ? {} : { fix: minimum });
    }
    return value;
  }

  function checkBase(value, name = "base") {
    if (!Number.isFinite(value) || value <= 0) throw argumentError("positive", name, value);
    return value;
  }

  // w_i = base ** -(2i / d), i = 0 … d/2 − 1: pe_docs.inverse_frequencies (torch.pow(base, -(two_i / d))). The base
  // is checked again: the NTK-aware base of a large factor overflows to infinity (pe-live-scaling.js).
  function inverseFrequencies(d, base = 10000) {
    checkBase(base);
    return Float64Array.from({ length: d / 2 }, (_, i) => Math.pow(base, -((2 * i) / d)));
  }
  peDocs.inverseFrequencies = inverseFrequencies;

  // The angle p · w_i of each frequency in degrees, in [0, 360): torch.rad2deg(torch.remainder(p * w, 2π)).
  const degrees = (p, w) => Array.from(w, (x) => {
    const a = p * x;
    return (a - 2 * Math.PI * Math.floor(a / (2 * Math.PI))) * (180 / Math.PI);
  });

  const language = () => ((document.documentElement.lang || "en").toLowerCase().startsWith("zh") ? "zh" : "en");

  // ---- numbers for the reader ---------------------------------------------------------------------------------

  const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  const power = (base, e) => `${base}${String(e).replace("-", "⁻").replace(/\d/g, (c) => SUPERSCRIPT[c])}`;

  // `digits` significant digits; thousands separated by a narrow space; a true minus sign.
  function fmt(x, digits = 4) {
    if (x === 0) return "0";
    if (!Number.isFinite(x)) return show(x);
    const a = Math.abs(x);
    if (a >= 1e15 || a < 1e-4) {
      const [m, e] = x.toExponential(digits - 1).split("e");
      return `${Number(m)}·${power(10, Number(e))}`.replace("-", "−");
    }
    let s = a >= Math.pow(10, digits) ? String(Math.round(x)) : String(Number(x.toPrecision(digits)));
    if (/^-?\d{5,}/.test(s)) s = s.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
    return s.replace("-", "−");
  }

  // Indices as ranges: [0, 1, 2, 5] -> "0–2, 5".
  function ranges(indices) {
    const runs = []; // [first, last] of each run of consecutive indices
    for (const i of indices) {
      if (runs.length && i === runs[runs.length - 1][1] + 1) runs[runs.length - 1][1] = i;
      else runs.push([i, i]);
    }
    return runs.map(([a, b]) => (b > a ? `${a}–${b}` : String(a))).join(", ");
  }

  // ---- DOM and SVG --------------------------------------------------------------------------------------------

  // An element (in `namespace`, if given) with its properties, attributes (props.attrs; null and undefined ones left
  // out) and children (null and undefined ones left out); svg(): an SVG element with its attributes.
  function element(tag, props, children, namespace) {
    const el = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k !== "attrs") el[k] = v;
      else for (const [a, x] of Object.entries(v || {})) if (x !== undefined && x !== null) el.setAttribute(a, x);
    }
    for (const child of children || []) if (child !== null && child !== undefined) el.append(child);
    return el;
  }
  const svg = (tag, attrs, children) => element(tag, { attrs }, children, "http://www.w3.org/2000/svg");

  // Set `attrs` on el if `on`, else remove them.
  const attributes = (el, attrs, on) => Object.entries(attrs)
    .forEach(([name, value]) => (on ? el.setAttribute(name, value) : el.removeAttribute(name)));

  const r2 = (x) => Math.round(x * 100) / 100;
  const dot = (a, b) => a.reduce((sum, x, j) => sum + x * b[j], 0); // in order, as a loop
  const path = (points) => points.map(([x, y], j) => `${j ? "L" : "M"}${r2(x)} ${r2(y)}`).join("");
  // values against their index (from x0): the points chart.line draws through
  const indexed = (ys, x0 = 0) => Array.from(ys, (y, j) => [x0 + j, y]);

  // A figure: its caption, a legend ([text, colour, swatch style]…) and its content.
  const figure = (caption, legend, ...content) => element("figure", {}, [
    element("figcaption", { textContent: caption }),
    legend && element("div", { className: "pe-live__legend", attrs: { "aria-hidden": "true" } },
      legend.map(([text, colour, style]) => element("span", {}, [
        element("span", { className: `pe-live__swatch ${style || ""} pe-live__c${colour}` }), text]))),
    ...content]);
  // One figure of a row of small ones (.pe-live__faces): its content and caption (nodes and text).
  const cell = (content, caption) => element("figure", { className: "pe-live__cell" }, [content,
    element("figcaption", {}, caption)]);
  // A hand of a dial (the clock's, RoPE's pairs) from the centre (c, c) to (x, y), with a round tip: solid (`width`
  // its stroke), or thin and dashed with an open tip (`next`: the clock's hand at p + k).
  const hand = (dial, c, [x, y], colour, width, next = false) => dial.append(
    svg("line", { x1: c, y1: c, x2: r2(x), y2: r2(y), "stroke-width": width,
      class: `pe-live__hand${next ? " pe-live__hand--next" : ""} pe-live__c${colour}` }),
    svg("circle", { cx: r2(x), cy: r2(y), r: next ? 3 : 3.2,
      class: `pe-live__tip${next ? "--next" : ""} pe-live__c${colour}` }));

  // About `count` round ticks (1, 2 or 5 times a power of 10) from lo to hi; whole numbers if `integer`.
  function niceTicks(lo, hi, count, integer) {
    if (!(hi > lo)) return [lo];
    const raw = (hi - lo) / Math.max(1, count);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    let step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
    if (integer) step = Math.max(1, Math.round(step));
    const out = [];
    for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) out.push(k * step);
    return out;
  }

  // A chart: an <svg> `width` × `height` with axes, ticks and labels; returns {svg, sx, sy, plot, x0, x1, y0, y1}
  // where sx, sy map data to pixels and `plot` is the group to draw the data into (clipped to the axes' box).
  // spec: {x: {lo, hi, label, ticks?, log?, integer?, format?}, y: {…}, label: the chart's text alternative,
  // margin?}; an axis runs downwards if its lo is above its hi.
  let clipCount = 0;
  function chart(width, height, spec) {
    const m = { left: 50, right: 10, top: 10, bottom: 38, ...spec.margin };
    const [x0, x1, y0, y1] = [m.left, Math.max(m.left + 10, width - m.right), height - m.bottom, m.top];
    const axis = (a, p0, p1) => {
      const t = (v) => (a.log ? Math.log10(v) : v);
      return (v) => p0 + ((t(v) - t(a.lo)) / (t(a.hi) - t(a.lo) || 1)) * (p1 - p0);
    };
    const [sx, sy] = [axis(spec.x, x0, x1), axis(spec.y, y0, y1)];
    const id = `pe-live-clip-${++clipCount}`;
    const clip = svg("rect", { x: x0, y: y1 - 4, width: x1 - x0, height: y0 - y1 + 8 });
    const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": spec.label },
      [svg("defs", {}, [svg("clipPath", { id }, [clip])])]);
    const grid = svg("g", { class: "pe-live__grid", "aria-hidden": "true" });
    const labels = svg("g", { class: "pe-live__ticks", "aria-hidden": "true" });
    const ticksOf = (a, room) => {
      if (a.ticks) return a.ticks;
      const count = Math.max(2, room);
      if (a.log) {
        const [lo, hi] = [Math.ceil(Math.log10(a.lo) - 1e-9), Math.floor(Math.log10(a.hi) + 1e-9)];
        const step = Math.max(1, Math.ceil((hi - lo + 1) / count));
        const out = [];
        for (let e = lo; e <= hi; e += step) out.push(Math.pow(10, e));
        return out.length >= 2 ? out : niceTicks(a.lo, a.hi, 3).filter((v) => v > 0); // less than a decade
      }
      const ticks = niceTicks(a.lo, a.hi, count, a.integer);
      return ticks.length >= 3 ? ticks : niceTicks(a.lo, a.hi, 2 * count, a.integer);
    };
    const tickText = (a, v) => {
      if (a.format) return a.format(v);
      const e = Math.round(Math.log10(v));
      return a.log && Math.abs(v / Math.pow(10, e) - 1) < 1e-9 ? power(10, e) : fmt(v);
    };
    for (const v of ticksOf(spec.x, Math.floor((x1 - x0) / 70))) {
      const px = r2(sx(v));
      grid.append(svg("line", { x1: px, x2: px, y1: y0, y2: y0 + 4 }));
      labels.append(svg("text", { x: px, y: y0 + 15, "text-anchor": "middle" }, [tickText(spec.x, v)]));
    }
    for (const v of ticksOf(spec.y, Math.floor((y0 - y1) / 30))) {
      const py = r2(sy(v));
      grid.append(svg("line", { x1: x0, x2: x1, y1: py, y2: py, class: "pe-live__gridline" }));
      labels.append(svg("text", { x: x0 - 5, y: py + 4, "text-anchor": "end" }, [tickText(spec.y, v)]));
    }
    grid.append(svg("rect", { x: x0, y: y1, width: x1 - x0, height: y0 - y1, class: "pe-live__frame" }));
    labels.append(svg("text", { x: (x0 + x1) / 2, y: height - 6, "text-anchor": "middle" }, [spec.x.label]));
    labels.append(svg("text", { transform: `translate(12 ${(y0 + y1) / 2}) rotate(-90)`, "text-anchor": "middle" },
      [spec.y.label]));
    const plot = svg("g", { "clip-path": `url(#${id})`, "aria-hidden": "true" });
    root.append(grid, plot, labels);
    // drawn into the plot, in the data's coordinates: a polyline through [x, y] points, and a circle at (x, y)
    const line = (points, cls) => plot.append(svg("path", { class: `pe-live__line ${cls}`,
      d: path(points.map(([x, y]) => [sx(x), sy(y)])) }));
    const marker = (x, y, cls, r = 3) => plot.append(svg("circle", { class: cls, cx: r2(sx(x)), cy: r2(sy(y)), r }));
    return { svg: root, sx, sy, plot, x0, x1, y0, y1, line, marker };
  }

  // ---- the settings in the page's address: ?<kind>.<key>=<value>&… --------------------------------------------

  const readAddress = (prefix) => Object.fromEntries([...new URLSearchParams(location.search)]
    .filter(([k]) => k.startsWith(prefix + ".")).map(([k, v]) => [k.slice(prefix.length + 1), v]));

  // Replace this explorer's settings in the address (others' stay), and point its fragment at the explorer.
  function writeAddress(prefix, values, anchor) {
    const url = new URL(location.href);
    for (const k of [...url.searchParams.keys()]) if (k.startsWith(prefix + ".")) url.searchParams.delete(k);
    for (const [k, v] of Object.entries(values)) url.searchParams.set(`${prefix}.${k}`, v);
    if (anchor) url.hash = anchor;
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  // ---- one explorer -------------------------------------------------------------------------------------------

  // A number field's range, [lowest, highest, lowest excluded]: f: {real?, even?, positive?, min?, open?, max?},
  // where min and max may be functions of the settings read (`v`, the fields before this one; unknown without it).
  const bounds = (f, v) => {
    const at = (b) => (typeof b === "function" ? (v ? b(v) : undefined) : b);
    return [f.even ? 2 : f.positive ? 0 : at(f.min), at(f.max), !!(f.open || f.positive)];
  };

  // A number field's text, checked against its range: the number, or an argumentError (pe_docs' checks; above a
  // max, the rule and limit of f.over(v), if given, for the message).
  function readNumber(f, raw, v) {
    const text = String(raw ?? "").trim();
    const x = Number(text);
    if (text === "" || Number.isNaN(x)) throw argumentError("empty", f.key, text);
    const [min, max] = bounds(f, v);
    if (f.positive) checkBase(x, f.key);
    else if (f.real) checkReal(f.key, x, min, f.open);
    else if (f.even) checkEven(x, f.key);
    else checkInt(f.key, x, min);
    if (max !== undefined && x > max) {
      const [rule, limit] = f.over ? f.over(v) : ["max", max];
      throw argumentError(rule, f.key, x, limit, { fix: max });
    }
    return x;
  }

  // Build an explorer in `root` from `spec`:
  //   fields: [{key, type: "number" (the default) | "text" | "select" | "check", value (the default), and for a
  //            number: real?, even?, positive?, min?, open?, max?, over?: (values) => [rule, limit] (the message of
  //            a dynamic max), step?, slider?: {min, max}; options (a select); when?: (values) => bool (shown only
  //            then)}]; defaults from root's data-<key> (dashes for underscores) or `value`;
  //   text: {en, zh}: the labels (text[key]; for a select, text[`${key}.${value}`]; the key or value itself if
  //         absent), names of fields in messages (text.names), the figures' own text;
  //   compute(values, t, root) -> data (values: numbers for number fields, true/false for a check; throws an
  //         argumentError for bad settings, with `field` if not the argument, and `fix` if another value is near);
  //   render(data, ctx) draws into ctx.views (ctx.width: its width now), and returns the summary text;
  //   extra(ctx, form) (optional): more controls (e.g. a play button) after the fields.
  let counter = 0;
  function mount(root, spec) {
    const [kind, lang] = [root.dataset.kind, language()];
    const t = spec.text[lang];
    const message = (err) => MESSAGES[lang][err.rule]({ ...err,
      argument: (t.names || {})[err.argument] || err.argument });
    const id = root.id || `pe-live-${++counter}`;
    const fromAddress = readAddress(kind);
    const values = {};
    const fields = {};
    const form = element("form", { className: "pe-live__controls", noValidate: true });
    for (const f of spec.fields) {
      const [type, inputId] = [f.type || "number", `${id}-${f.key}`];
      const dataKey = f.key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      values[f.key] = f.key in fromAddress ? fromAddress[f.key] : root.dataset[dataKey] ?? String(f.value);
      const input = type === "select"
        ? element("select", { id: inputId, name: f.key },
          f.options.map((o) => element("option", { value: o, textContent: t[`${f.key}.${o}`] || o })))
        : element("input", { id: inputId, name: f.key, type: type === "check" ? "checkbox" : "text", spellcheck: false,
          autocomplete: "off", inputMode: type !== "number" ? "text" : f.real ? "decimal" : "numeric" });
      const label = element("label", { htmlFor: inputId, textContent: t[f.key] || f.key, id: `${inputId}-label` });
      const hint = type === "number" ? element("span", { className: "pe-live__range", id: `${inputId}-range` }) : null;
      const slider = f.slider && element("input", { type: "range", id: `${inputId}-slider`,
        attrs: { min: f.slider.min, max: f.slider.max, step: 1, "aria-labelledby": label.id, "data-for": f.key } });
      const wrap = element("div", { className: `pe-live__field pe-live__field--${type}` },
        type === "check" ? [input, label] : [label, input, hint, slider]);
      form.append(wrap);
      fields[f.key] = { f, type, input, wrap, slider, hint };
    }
    const [error, adjusted] = [["error", "alert"], ["adjusted", "status"]].map(([name, role]) => element("p",
      { className: `pe-live__${name}`, id: `${id}-${name}`, hidden: true, attrs: { role } }));
    const summary = element("p", { className: "pe-live__summary", attrs: { "aria-live": "polite" } });
    const views = element("div", { className: "pe-live__views" });
    const state = { root, kind, lang, t, values, data: null, error: null, spec };
    root.peLive = state;

    function showValues() {
      for (const [key, { input, slider, type }] of Object.entries(fields)) {
        if (type === "check") input.checked = values[key] === "1" || values[key] === "true";
        else input.value = values[key];
        if (slider && values[key] !== "" && Number.isFinite(Number(values[key]))) slider.value = values[key];
      }
    }

    // The settings of the shown fields: as typed (strings), and read (numbers, booleans; the first error thrown).
    function visibleValues() {
      for (const { f, wrap } of Object.values(fields)) wrap.hidden = !!f.when && !f.when(values);
      return Object.fromEntries(Object.entries(values).filter(([key]) => !fields[key].wrap.hidden));
    }
    function read(shown) {
      const v = {};
      for (const [key, raw] of Object.entries(shown)) {
        const { f, type } = fields[key];
        if (type === "select" && !f.options.includes(raw)) {
          throw argumentError("choice", key, raw, f.options.map(show).join(", "));
        }
        v[key] = type === "number" ? readNumber(f, raw, v) : type === "check" ? raw === "1" || raw === "true" : raw;
      }
      return v;
    }

    const ctx = {
      t, lang, state, views, root, id,
      get width() { return Math.max(200, views.clientWidth || root.clientWidth - 20 || 600); },
      set(key, value, options = {}) {
        values[key] = String(value);
        showValues();
        update({ changed: key, ...options });
      },
    };

    // `changed`: the field the reader changed. Another field that it puts out of range is adapted to the nearest
    // good value (and the reader told), or named in the message beside the figures of the last good setting.
    let computed = null; // the settings of the last update
    let lastRead = null; // the last good setting, read
    function update({ write = true, quiet = false, changed = null } = {}) {
      summary.setAttribute("aria-live", quiet ? "off" : "polite");
      if (JSON.stringify(values) === computed) { // a change event after its input event, a stopped animation
        if (write) writeAddress(kind, visibleValues(), root.id);
        return;
      }
      const notes = [];
      let [data, shown, failed] = [null, null, null];
      while (!data && !failed) {
        shown = visibleValues();
        try {
          const v = read(shown);
          data = spec.compute(v, t, root);
          lastRead = v;
        } catch (err) {
          if (err.rule === undefined) throw err;
          const field = err.field || err.argument;
          const other = changed !== null && field !== changed && field in fields;
          if (other && err.fix !== undefined && notes.length < 4) {
            notes.push(MESSAGES[lang].adjusted(t[field] || field, values[field], err.fix, message(err)));
            values[field] = String(err.fix);
            showValues();
          } else failed = [err, field, other];
        }
      }
      computed = JSON.stringify(values);
      adjusted.hidden = !notes.length;
      adjusted.textContent = notes.join(" ");
      if (write) writeAddress(kind, shown, root.id);
      Object.assign(state, { data, error: failed && message(failed[0]), rule: failed && failed[0].rule });
      // the field in error (if any) marked invalid and described by the message; every number field by its range
      for (const [key, { input, hint }] of Object.entries(fields)) {
        const invalid = !!failed && key === failed[1];
        const described = [hint && hint.id, invalid && error.id].filter(Boolean).join(" ");
        attributes(input, { "aria-invalid": "true" }, invalid);
        attributes(input, { "aria-describedby": described }, described !== "");
      }
      error.hidden = !failed;
      error.textContent = state.error || "";
      root.dataset.state = failed ? "error" : "ok";
      // a bad setting: the message in place of the views, or beside the last good figures (dimmed), if the reader
      // changed another field
      const stale = !!failed && failed[2] && views.childElementCount > 0;
      views.classList.toggle("pe-live__views--stale", stale);
      views.inert = stale;
      views.hidden = !!failed && !stale;
      if (views.hidden) views.replaceChildren();
      if (failed) summary.textContent = "";
      else draw();
    }

    function draw() {
      if (!state.data) return;
      summary.textContent = spec.render(state.data, ctx);
      // a table wider than the column scrolls in its box: then a tab stop and a region named by its caption
      for (const box of views.querySelectorAll(".pe-live__scroll")) {
        const region = { tabindex: "0", role: "region", "aria-label": box.querySelector("caption")?.textContent || "" };
        attributes(box, region, box.scrollWidth > box.clientWidth + 1);
      }
      for (const { f, hint } of Object.values(fields)) if (hint) hint.textContent = rangeText(f);
    }

    // A number field's range, in words ("even 2–1024", "integer 0–99", "> 0"), as the last good setting has it.
    function rangeText(f) {
      const [even, whole, sep] = lang === "zh" ? ["偶数", "整数", "，"] : ["even", "integer", ", "];
      const [lo, hi, open] = bounds(f, lastRead);
      const span = hi !== undefined && !open && lo !== undefined ? [`${fmt(lo)}–${fmt(hi)}`]
        : [lo !== undefined && `${open ? ">" : "≥"} ${fmt(lo)}`, hi !== undefined && `≤ ${fmt(hi)}`];
      const kind = f.even ? even : f.real || f.positive ? "" : whole;
      return [kind, span.filter(Boolean).join(sep)].filter(Boolean).join(" ");
    }

    // Typing updates after a short pause ("1024" does not flash errors for 1, 10, 102); Enter, leaving the field,
    // the arrow keys, a select, a checkbox and a slider update at once.
    let timer = 0;
    const take = (target) => {
      const key = target.dataset.for || target.name;
      if (!(key in values)) return null;
      values[key] = target.type === "checkbox" ? (target.checked ? "1" : "0") : target.value;
      const { input, slider } = fields[key];
      if (target === slider) input.value = target.value;
      else if (slider && target.value.trim() && Number.isFinite(Number(target.value))) slider.value = target.value;
      return key;
    };
    const now = (key, options) => {
      clearTimeout(timer);
      if (key) update({ changed: key, ...options });
    };
    form.addEventListener("input", (event) => {
      const key = take(event.target);
      clearTimeout(timer);
      if (key && event.target.type === "text") timer = setTimeout(() => update({ changed: key }), 300);
      else now(key, { quiet: event.target.type === "range" });
    });
    form.addEventListener("change", (event) => now(take(event.target)));
    form.addEventListener("keydown", (event) => {
      const [target, sign] = [event.target, { ArrowUp: 1, ArrowDown: -1 }[event.key]];
      if (target.type !== "text") return;
      const { f, type } = fields[target.name];
      const x = Number(target.value.trim());
      const step = sign && type === "number" && target.value.trim() !== "" && Number.isFinite(x);
      if (event.key !== "Enter" && !step) return;
      event.preventDefault();
      if (step) {
        // one step (Shift: ten) within the field's range (as the last good setting has it); an even field stays
        // even; at an open lower bound (> 0) the field keeps its value
        const [min, max, open] = bounds(f, lastRead);
        let y = Number((x + sign * (f.step || (f.even ? 2 : 1)) * (event.shiftKey ? 10 : 1)).toPrecision(12));
        if (f.even) y = 2 * Math[sign > 0 ? "floor" : "ceil"](y / 2);
        if (max !== undefined) y = Math.min(y, max);
        if (min !== undefined && (open ? y <= min : y < min)) y = open ? x : min;
        target.value = String(y);
      }
      now(take(target));
    });
    form.addEventListener("submit", (event) => event.preventDefault());

    root.replaceChildren(form, error, adjusted, summary, views);
    root.classList.add("pe-live--ready");
    if (spec.extra) spec.extra(ctx, form);
    showValues();
    let lastWidth = views.clientWidth;
    new ResizeObserver(() => {
      if (views.clientWidth && views.clientWidth !== lastWidth) {
        lastWidth = views.clientWidth;
        draw();
      }
    }).observe(views);
    state.update = update;
    update({ write: false });
    return state;
  }

  // ---- registration -------------------------------------------------------------------------------------------

  const kinds = {};
  function startKind(kind) {
    for (const root of document.querySelectorAll(`.pe-live[data-kind="${kind}"]`)) {
      if (root.peLive || root.dataset.state) continue;
      try {
        if (kinds[kind].mount) kinds[kind].mount(root);
        else mount(root, kinds[kind]);
      } catch (err) {
        root.dataset.state = "broken";
        throw err;
      }
    }
  }
  function register(kind, spec) {
    kinds[kind] = spec;
    startKind(kind);
  }
  const start = () => Object.keys(kinds).forEach(startKind);
  // Material re-emits document$ on every page load (also with instant navigation); without it, run once.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) window.document$.subscribe(start);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);

  peDocs.live = {
    register, start, mount, argumentError, checkReal, language, fmt, ranges, power, element, svg, chart, figure, cell,
    hand, path, indexed, r2, dot, niceTicks, degrees, MESSAGES,
  };
})();
