// The live figures of the site ("see it move"): start here's clock hands, RoPE on relative, ALiBi and T5's buckets
// and RoPE's context extension on relative-schemes. No dependencies, no network; every picture is SVG drawn here.
//
// This file holds what they share:
// - pe_docs' argument checks, the frequencies w_i = base^(−2i/d) and RoPE's rotation (window.peDocs.ropeRotate ≙
//   pe_docs.rope_rotate, float64); each figure's file adds its own computations to window.peDocs (ropeFrequencies
//   in pe-live-scaling.js, alibiSlopes and t5RelativeBucket in pe-live-bias.js), and tests/test_live.py compares
//   them all with pe_docs in a real browser;
// - the page's language and the messages for bad settings;
// - one explorer's frame (peDocs.live.mount): labelled controls, a message in place of the views for bad settings,
//   a summary that states the plot's key numbers as text, and the settings kept in the page's address (query
//   parameters `<kind>.<setting>`, written as the reader changes them; opening the address restores them);
// - small SVG charts whose colours are Material's variables (both schemes, no redraw when the scheme changes).
// Each figure is its own file, pe-live-<kind>.js, that calls peDocs.live.register(kind, spec). overrides/main.html
// loads this file and the figures of a page that embeds <div class="pe-live" data-kind="<kind>" id=… data-…>;
// the div's own text (what the still figure shows) is what a reader without JavaScript sees.
(function () {
  "use strict";

  const peDocs = (window.peDocs = window.peDocs || {});

  // ---- checks, as pe_docs/_checks.py ------------------------------------------------------------------------

  // A value as pe_docs' messages print it (Python's repr: nan, inf, 'text', True).
  function show(value) {
    if (typeof value === "number") {
      if (Number.isNaN(value)) return "nan";
      if (value === Infinity) return "inf";
      if (value === -Infinity) return "-inf";
      return String(value);
    }
    if (typeof value === "string") return `'${value}'`;
    if (typeof value === "boolean") return value ? "True" : "False";
    if (value === null || value === undefined) return "None";
    return JSON.stringify(value);
  }

  const typeName = (value) =>
    value === null || value === undefined ? "NoneType" : Array.isArray(value) ? "list" : typeof value === "string"
      ? "str" : typeof value === "boolean" ? "bool" : typeof value;

  // TypeError for the wrong kind of value, RangeError for a bad value (pe_docs: TypeError / ValueError). The message
  // is pe_docs'; `argument`, `value`, `rule` and `limit` let the page say it in its own language.
  function argumentError(Kind, message, argument, value, rule, limit) {
    const err = new Kind(message);
    Object.assign(err, { argument, value, rule, limit });
    return err;
  }

  function checkInt(name, value, minimum) {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw argumentError(TypeError, `${name} must be an integer, got ${show(value)} of type ${typeName(value)}`,
        name, value, "integer");
    }
    if (minimum !== undefined && value < minimum) {
      throw argumentError(RangeError, `${name} must be >= ${minimum}, got ${value}`, name, value, "min", minimum);
    }
    return value;
  }

  function checkEven(value, name) {
    const d = checkInt(name, value, 1);
    if (d % 2) {
      throw argumentError(RangeError,
        `${name} must be even (each frequency fills one sin and one cos column), got ${d}`, name, d, "even");
    }
    return d;
  }

  function checkBase(value, name = "base") {
    if (typeof value !== "number") {
      throw argumentError(TypeError, `${name} must be a real number, got ${show(value)} of type ${typeName(value)}`,
        name, value, "real");
    }
    if (!Number.isFinite(value) || value <= 0) {
      throw argumentError(RangeError, `${name} must be finite and > 0, got ${show(value)}`, name, value, "positive");
    }
    return value;
  }

  // pe_docs' check_real: a finite number within [minimum, maximum] (minimum excluded with `open`).
  function checkReal(name, value, minimum, open) {
    if (typeof value !== "number") {
      throw argumentError(TypeError, `${name} must be a real number, got ${show(value)} of type ${typeName(value)}`,
        name, value, "real");
    }
    if (!Number.isFinite(value)) {
      throw argumentError(RangeError, `${name} must be finite, got ${show(value)}`, name, value, "finite");
    }
    if (minimum !== undefined && (open ? value <= minimum : value < minimum)) {
      throw argumentError(RangeError, `${name} must be ${open ? ">" : ">="} ${minimum}, got ${show(value)}`,
        name, value, open ? "above" : "min", minimum);
    }
    return value;
  }

  function checkBool(name, value) {
    if (typeof value !== "boolean") {
      throw argumentError(TypeError, `${name} must be a bool, got ${show(value)}`, name, value, "bool");
    }
    return value;
  }

  // ---- the computations -------------------------------------------------------------------------------------

  // w_i = base ** -(2i / d), i = 0 … d/2 − 1: pe_docs.inverse_frequencies (torch.pow(base, -(two_i / d))).
  function inverseFrequencies(d, base = 10000) {
    checkEven(d, "d_model");
    checkBase(base);
    const w = new Float64Array(d / 2);
    for (let i = 0; i < w.length; i++) w[i] = Math.pow(base, -((2 * i) / d));
    return w;
  }

  // RoPE on one query or key vector x (length d, even) at an integer position (pe_docs.rope_rotate, float64):
  // pair (a, b) -> (a cos − b sin, a sin + b cos) of the angle position · w_i; pair i is (x[2i], x[2i+1])
  // ("interleaved") or (x[i], x[i + d/2]) ("half").
  function ropeRotate(x, position, base = 10000, pairing = "interleaved") {
    if (!(x instanceof Float64Array) && !Array.isArray(x)) {
      throw argumentError(TypeError, `x must be an array of numbers, got ${typeName(x)}`, "x", x, "array");
    }
    const d = checkEven(x.length, "x.size(-1)");
    checkBase(base);
    if (pairing !== "interleaved" && pairing !== "half") {
      throw argumentError(RangeError, `pairing must be one of 'interleaved', 'half'; got ${show(pairing)}`,
        "pairing", pairing, "choice", "interleaved, half");
    }
    const p = checkInt("position", position);
    if (Math.abs(p) > 2 ** 53) {
      throw argumentError(RangeError, `positions must lie in [-2**53, 2**53] (exact in float64), got ${p}`,
        "position", p, "exact");
    }
    return rotate(inverseFrequencies(d, base), x, p, pairing);
  }

  // ropeRotate with the frequencies w given (the figures turn one vector to many positions).
  function rotate(w, x, p, pairing) {
    const d = x.length;
    const out = new Float64Array(d);
    const interleaved = pairing === "interleaved";
    for (let i = 0; i < w.length; i++) {
      const angle = p * w[i];
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      const ia = interleaved ? 2 * i : i;
      const ib = interleaved ? 2 * i + 1 : i + d / 2;
      const a = x[ia];
      const bb = x[ib];
      out[ia] = a * c - bb * s;
      out[ib] = a * s + bb * c;
    }
    return out;
  }

  Object.assign(peDocs, { ropeRotate });
  if (!peDocs.inverseFrequencies) peDocs.inverseFrequencies = inverseFrequencies; // pe-explorer.js has its own

  // ---- the page's language and shared messages --------------------------------------------------------------

  const language = () => ((document.documentElement.lang || "en").toLowerCase().startsWith("zh") ? "zh" : "en");

  // Messages for bad settings, keyed by an error's `rule` (the figures add their own).
  const ERRORS = {
    en: {
      integer: (e) => `${e.argument} must be an integer, got ${show(e.value)}`,
      min: (e) => `${e.argument} must be >= ${e.limit}, got ${show(e.value)}`,
      above: (e) => `${e.argument} must be > ${e.limit}, got ${show(e.value)}`,
      max: (e) => `${e.argument} must be <= ${e.limit} in this explorer, got ${show(e.value)}`,
      even: (e) => `${e.argument} must be even (each frequency turns one pair of features), got ${show(e.value)}`,
      real: (e) => `${e.argument} must be a real number, got ${show(e.value)}`,
      finite: (e) => `${e.argument} must be finite, got ${show(e.value)}`,
      positive: (e) => `${e.argument} must be finite and > 0, got ${show(e.value)}`,
      empty: (e) => `${e.argument} is empty or not a number`,
      choice: (e) => `${e.argument} must be one of ${e.limit}, got ${show(e.value)}`,
    },
    zh: {
      integer: (e) => `${e.argument} 必须是整数，收到的是 ${show(e.value)}`,
      min: (e) => `${e.argument} 必须 ≥ ${e.limit}，收到的是 ${show(e.value)}`,
      above: (e) => `${e.argument} 必须 > ${e.limit}，收到的是 ${show(e.value)}`,
      max: (e) => `${e.argument} 在这个交互演示里最大为 ${e.limit}，收到的是 ${show(e.value)}`,
      even: (e) => `${e.argument} 必须是偶数（每个频率转动一对特征），收到的是 ${show(e.value)}`,
      real: (e) => `${e.argument} 必须是实数，收到的是 ${show(e.value)}`,
      finite: (e) => `${e.argument} 必须是有限数，收到的是 ${show(e.value)}`,
      positive: (e) => `${e.argument} 必须是有限的正数，收到的是 ${show(e.value)}`,
      empty: (e) => `${e.argument} 为空或不是数字`,
      choice: (e) => `${e.argument} 必须是 ${e.limit} 之一，收到的是 ${show(e.value)}`,
    },
  };

  // ---- numbers for the reader ------------------------------------------------------------------------------

  const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
  const power10 = (e) => `10${String(e).replace(/./g, (ch) => SUPERSCRIPT[ch])}`;

  // `digits` significant digits; thousands separated by a narrow space; a true minus sign.
  function fmt(x, digits = 4) {
    if (x === 0) return "0";
    if (!Number.isFinite(x)) return show(x);
    const a = Math.abs(x);
    if (a >= 1e15 || a < 1e-4) {
      const [m, e] = x.toExponential(digits - 1).split("e");
      return `${Number(m)}·${power10(Number(e))}`.replace("-", "−");
    }
    let s = a >= Math.pow(10, digits) ? String(Math.round(x)) : String(Number(x.toPrecision(digits)));
    if (/^-?\d{5,}/.test(s)) s = s.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
    return s.replace("-", "−");
  }

  // Pair indices as ranges: [0, 1, 2, 5] -> "0–2, 5".
  function ranges(indices) {
    const parts = [];
    for (let k = 0; k < indices.length; k++) {
      let j = k;
      while (j + 1 < indices.length && indices[j + 1] === indices[j] + 1) j++;
      parts.push(j > k ? `${indices[k]}–${indices[j]}` : String(indices[k]));
      k = j;
    }
    return parts.join(", ");
  }

  // ---- DOM and SVG ------------------------------------------------------------------------------------------

  function element(tag, props, children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "attrs") for (const [a, x] of Object.entries(v)) el.setAttribute(a, x);
      else el[k] = v;
    }
    for (const child of children || []) if (child !== null && child !== undefined) el.append(child);
    return el;
  }

  const SVG_NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, children) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) el.setAttribute(k, v);
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      el.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return el;
  }

  const r2 = (x) => Math.round(x * 100) / 100;
  const path = (points) => points.map(([x, y], j) => `${j ? "L" : "M"}${r2(x)} ${r2(y)}`).join("");

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

  // A chart: an <svg> `width` × `height` with axes, ticks and labels; returns {svg, sx, sy, plot} where sx, sy
  // map data to pixels and `plot` is the group to draw the data into (clipped to the axes' box).
  // spec: {x: {lo, hi, label, ticks?, log?}, y: {…, log?}, label: the chart's text alternative}.
  let clipCount = 0;
  function chart(width, height, spec) {
    const m = { left: 50, right: 10, top: 10, bottom: 38, ...(spec.margin || {}) };
    const x0 = m.left;
    const x1 = Math.max(x0 + 10, width - m.right);
    const y0 = height - m.bottom;
    const y1 = m.top;
    const axis = (a, p0, p1) => {
      const t = (v) => (a.log ? Math.log10(v) : v);
      const lo = t(a.lo);
      const span = t(a.hi) - lo || 1;
      return (v) => p0 + ((t(v) - lo) / span) * (p1 - p0);
    };
    const sx = axis(spec.x, x0, x1);
    const sy = axis(spec.y, y0, y1);
    const id = `pe-live-clip-${++clipCount}`;
    const root = svg("svg", {
      width, height, viewBox: `0 0 ${width} ${height}`, class: "pe-live__chart", role: "img",
      "aria-label": spec.label,
    });
    root.append(svg("defs", {}, [svg("clipPath", { id }, [svg("rect", {
      x: x0, y: y1 - 4, width: x1 - x0, height: y0 - y1 + 8 })])]));
    const grid = svg("g", { class: "pe-live__grid", "aria-hidden": "true" });
    const labels = svg("g", { class: "pe-live__ticks", "aria-hidden": "true" });
    const ticksOf = (a, room) => {
      if (a.ticks) return a.ticks;
      if (a.log) {
        const lo = Math.ceil(Math.log10(a.lo) - 1e-9);
        const hi = Math.floor(Math.log10(a.hi) + 1e-9);
        const step = Math.max(1, Math.ceil((hi - lo + 1) / Math.max(2, room)));
        const out = [];
        for (let e = lo; e <= hi; e += step) out.push(Math.pow(10, e));
        return out;
      }
      const ticks = niceTicks(a.lo, a.hi, Math.max(2, room), a.integer);
      return ticks.length >= 3 ? ticks : niceTicks(a.lo, a.hi, 2 * Math.max(2, room), a.integer);
    };
    const tickText = (a, v) => (a.format ? a.format(v) : a.log ? power10(Math.round(Math.log10(v))) : fmt(v));
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
    labels.append(svg("text", {
      x: 0, y: 0, transform: `translate(12 ${(y0 + y1) / 2}) rotate(-90)`, "text-anchor": "middle" },
    [spec.y.label]));
    const plot = svg("g", { "clip-path": `url(#${id})`, "aria-hidden": "true" });
    root.append(grid, plot, labels);
    return { svg: root, sx, sy, plot, x0, x1, y0, y1 };
  }

  // ---- the settings in the page's address -------------------------------------------------------------------

  // Settings of the explorer `prefix` in the address: ?<prefix>.<key>=<value>&…
  function readAddress(prefix) {
    const out = {};
    for (const [k, v] of new URLSearchParams(location.search)) {
      if (k.startsWith(prefix + ".")) out[k.slice(prefix.length + 1)] = v;
    }
    return out;
  }

  // Replace this explorer's settings in the address (others' stay), and point its fragment at the explorer.
  function writeAddress(prefix, values, anchor) {
    const url = new URL(location.href);
    for (const k of [...url.searchParams.keys()]) if (k.startsWith(prefix + ".")) url.searchParams.delete(k);
    for (const [k, v] of Object.entries(values)) url.searchParams.set(`${prefix}.${k}`, v);
    if (anchor) url.hash = anchor;
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  // ---- one explorer -----------------------------------------------------------------------------------------

  // A number typed into a field; an empty or unreadable field is an error naming it.
  function number(values, key) {
    const raw = String(values[key] === undefined ? "" : values[key]).trim();
    const x = Number(raw);
    if (raw === "" || Number.isNaN(x)) throw argumentError(TypeError, `${key} is empty`, key, raw, "empty");
    return x;
  }

  function limit(key, value, maximum) {
    if (value > maximum) throw argumentError(RangeError, `${key} too large`, key, value, "max", maximum);
    return value;
  }

  // Build an explorer in `root` from `spec`:
  //   fields: [{key, type: "number" | "select" | "check", attrs?, options?: [value…], slider?: {min, max},
  //            when?: (values) => bool (shown only then)}]; defaults from root's data-<key> (dashes for
  //            underscores) or `value`;
  //   text: {en, zh}: the labels (text[key]; for a select, text[`${key}.${value}`]), the figures' captions and
  //         errors of their own (text.errors);
  //   compute(values, t, root) -> data (throws argumentError for bad settings);
  //   render(data, ctx) draws into ctx.views (width: ctx.width()), and returns the summary text;
  //   extra(ctx) (optional): more controls (e.g. a play button) after the fields.
  let counter = 0;
  function mount(root, spec) {
    const kind = root.dataset.kind;
    const lang = language();
    const t = spec.text[lang];
    const errors = { ...ERRORS[lang], ...(t.errors || {}) };
    const id = root.id || `pe-live-${++counter}`;
    const fromAddress = readAddress(kind);
    const values = {};
    const inputs = {};
    const wrappers = {};
    const form = element("form", { className: "pe-live__controls", noValidate: true });
    for (const f of spec.fields) {
      const dataKey = f.key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      const initial = f.key in fromAddress ? fromAddress[f.key] : root.dataset[dataKey] ?? String(f.value);
      const inputId = `${id}-${f.key}`;
      let input;
      if (f.type === "select") {
        input = element("select", { id: inputId, name: f.key },
          f.options.map((o) => element("option", { value: o, textContent: t[`${f.key}.${o}`] || o })));
      } else if (f.type === "check") {
        input = element("input", { id: inputId, name: f.key, type: "checkbox" });
      } else {
        input = element("input", { id: inputId, name: f.key, type: "text", autocomplete: "off",
          inputMode: f.integer === false ? "decimal" : "numeric", spellcheck: false });
      }
      for (const [k, v] of Object.entries(f.attrs || {})) input.setAttribute(k, v);
      const label = element("label", { htmlFor: inputId, textContent: t[f.key], id: `${inputId}-label` });
      const children = f.type === "check" ? [input, label] : [label, input];
      let slider = null;
      if (f.slider) {
        slider = element("input", { type: "range", id: `${inputId}-slider`, tabIndex: 0,
          attrs: { min: f.slider.min, max: f.slider.max, step: 1, "aria-labelledby": label.id } });
        slider.dataset.for = f.key;
        children.push(slider);
      }
      const wrap = element("div", { className: `pe-live__field pe-live__field--${f.type || "number"}` }, children);
      form.append(wrap);
      inputs[f.key] = input;
      wrappers[f.key] = { wrap, slider, field: f };
      values[f.key] = initial;
    }
    const error = element("p", { className: "pe-live__error", id: `${id}-error`, hidden: true,
      attrs: { role: "alert" } });
    const summary = element("p", { className: "pe-live__summary", attrs: { "aria-live": "polite" } });
    const views = element("div", { className: "pe-live__views" });
    const state = { root, kind, lang, t, inputs, values, data: null, error: null, renders: 0, spec };
    root.peLive = state;

    // Show the values in the controls (a select that cannot show one keeps it as its pending value).
    function showValues() {
      for (const [key, input] of Object.entries(inputs)) {
        const v = values[key];
        if (input.type === "checkbox") input.checked = v === "1" || v === "true";
        else input.value = v;
        const slider = wrappers[key].slider;
        if (slider && v !== "" && Number.isFinite(Number(v))) slider.value = v;
      }
    }

    function visibleValues() {
      const out = {};
      for (const [key, { field }] of Object.entries(wrappers)) {
        const shown = !field.when || field.when(values);
        wrappers[key].wrap.hidden = !shown;
        if (shown) out[key] = values[key];
      }
      return out;
    }

    const ctx = {
      t, lang, state, views, root, id, fmt, ranges, element, svg, chart, path, niceTicks, r2,
      width: () => Math.max(200, views.clientWidth || root.clientWidth - 20 || 600),
      set(key, value, options = {}) {
        values[key] = String(value);
        showValues();
        update(options);
      },
    };

    function update({ write = true, quiet = false } = {}) {
      const visible = visibleValues();
      for (const f of spec.fields) {
        if (f.type === "select" && !f.options.includes(values[f.key]) && visible[f.key] !== undefined) {
          return fail(argumentError(RangeError, "bad choice", f.key, values[f.key], "choice", f.options.join(", ")),
            write);
        }
      }
      let data;
      try {
        data = spec.compute(visible, t, root);
      } catch (err) {
        if (err.rule === undefined) throw err;
        return fail(err, write);
      }
      state.data = data;
      state.error = null;
      for (const input of Object.values(inputs)) {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
      error.hidden = true;
      error.textContent = "";
      views.hidden = false;
      root.dataset.state = "ok";
      summary.setAttribute("aria-live", quiet ? "off" : "polite");
      draw();
      if (write) writeAddress(kind, visible, root.id);
    }

    function draw() {
      if (!state.data) return;
      summary.textContent = spec.render(state.data, ctx);
      // a table wider than the column scrolls in its box: then a tab stop and a region named by its caption
      for (const box of views.querySelectorAll(".pe-live__scroll")) {
        const wide = box.scrollWidth > box.clientWidth + 1;
        box.toggleAttribute("tabindex", wide);
        if (wide) {
          box.tabIndex = 0;
          box.setAttribute("role", "region");
          box.setAttribute("aria-label", box.querySelector("caption")?.textContent || "");
        } else {
          box.removeAttribute("role");
          box.removeAttribute("aria-label");
        }
      }
      state.renders += 1;
      root.dataset.renders = String(state.renders);
    }

    function fail(err, write) {
      const rule = errors[err.rule] ? err.rule : "real";
      const names = t.names || {};
      const message = errors[rule]({ ...err, argument: names[err.argument] || err.argument,
        value: err.value, limit: err.limit });
      state.error = message;
      state.data = null;
      const field = err.field || err.argument;
      for (const [key, input] of Object.entries(inputs)) {
        if (key === field) {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", error.id);
        } else {
          input.removeAttribute("aria-invalid");
          input.removeAttribute("aria-describedby");
        }
      }
      error.textContent = message;
      error.hidden = false;
      views.hidden = true;
      views.replaceChildren();
      summary.textContent = "";
      root.dataset.state = "error";
      if (write) writeAddress(kind, visibleValues(), root.id);
    }

    // Typing updates after a short pause ("1024" does not flash errors for 1, 10, 102); Enter, leaving the field,
    // a select, a checkbox and a slider update at once.
    let timer = 0;
    const read = (target) => {
      const key = target.dataset.for || target.name;
      if (!(key in values)) return null;
      values[key] = target.type === "checkbox" ? (target.checked ? "1" : "0") : target.value;
      if (target.dataset.for) inputs[key].value = target.value;
      else if (wrappers[key].slider && Number.isFinite(Number(target.value)) && target.value.trim() !== "") {
        wrappers[key].slider.value = target.value;
      }
      return key;
    };
    form.addEventListener("input", (event) => {
      if (!read(event.target)) return;
      clearTimeout(timer);
      if (event.target.type === "text") timer = setTimeout(() => update(), 300);
      else update({ quiet: event.target.type === "range" });
    });
    form.addEventListener("change", (event) => {
      if (!read(event.target)) return;
      clearTimeout(timer);
      update();
    });
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.type === "text") {
        event.preventDefault();
        read(event.target);
        clearTimeout(timer);
        update();
      }
    });
    form.addEventListener("submit", (event) => event.preventDefault());

    root.replaceChildren(form, error, summary, views);
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
    state.set = ctx.set;
    update({ write: false });
    return state;
  }

  // ---- registration -----------------------------------------------------------------------------------------

  const kinds = {};
  function start(kind) {
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
    start(kind);
  }
  const startAll = () => Object.keys(kinds).forEach(start);
  // Material re-emits document$ on every page load (also with instant navigation); without it, run once.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) window.document$.subscribe(startAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);

  peDocs.live = {
    register, start: startAll, mount, rotate, inverseFrequencies, argumentError, checkInt, checkEven, checkBase,
    checkReal, checkBool, number, limit, fmt, ranges, show, typeName, element, svg, chart, path, language,
  };
})();
