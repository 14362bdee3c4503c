// The interactive explorer of the sinusoidal positional encoding (no dependencies, no network).
//
// window.peDocs.sinusoidalTable(maxLen, dModel, base) computes the table in float64, the way
// pe_docs.sinusoidal_table(..., dtype=torch.float64) does: w_i = base ** -(2i / d), phase p * w_i, then its
// sine and cosine. tests/test_explorer.py compares the two in a real browser. Every element
// <div class="pe-explorer" data-d-model data-base data-max-len data-position data-columns> on a page becomes
// an explorer: number inputs, and four views (the table as a heatmap, chosen columns, the wavelength of every
// pair, and the dot product PE[p]·PE[p+k] against k), re-drawn on input, on resize and when the colour scheme
// changes. Bad input shows a message in the page's language in place of the views. The settings are kept in the
// page's address (?table.d_model=64&table.base=100&…#table-explorer), written as the reader changes them; opening
// that address restores them.
(function () {
  "use strict";

  // ---- the computation ------------------------------------------------------------------------------------

  // A value as pe_docs' messages print it (Python's repr of a float: nan, inf).
  function show(value) {
    if (typeof value === "number") {
      if (Number.isNaN(value)) return "nan";
      if (value === Infinity) return "inf";
      if (value === -Infinity) return "-inf";
      return String(value);
    }
    return JSON.stringify(value) + " of type " + (value === null ? "null" : typeof value);
  }

  // TypeError for the wrong kind of value, RangeError for a bad value (pe_docs: TypeError / ValueError). The
  // message is pe_docs' own; `argument`, `value`, `rule` and `limit` let the page translate it.
  function argumentError(Kind, message, argument, value, rule, limit) {
    const err = new Kind(message);
    err.argument = argument;
    err.value = value;
    err.rule = rule;
    err.limit = limit;
    return err;
  }

  function checkInt(name, value, minimum) {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw argumentError(TypeError, `${name} must be an integer, got ${show(value)}`, name, value, "integer");
    }
    if (value < minimum) {
      throw argumentError(RangeError, `${name} must be >= ${minimum}, got ${value}`, name, value, "min", minimum);
    }
    return value;
  }

  function checkDModel(value) {
    const d = checkInt("d_model", value, 1);
    if (d % 2) {
      throw argumentError(
        RangeError, `d_model must be even (each frequency fills one sin and one cos column), got ${d}`,
        "d_model", d, "even");
    }
    return d;
  }

  function checkBase(value) {
    if (typeof value !== "number") {
      throw argumentError(TypeError, `base must be a real number, got ${show(value)}`, "base", value, "real");
    }
    if (!Number.isFinite(value) || value <= 0) {
      throw argumentError(RangeError, `base must be finite and > 0, got ${show(value)}`, "base", value, "positive");
    }
    return value;
  }

  // w_i = base ** -(2i / d), i = 0 … d/2 - 1: the same float64 operations as pe_docs.inverse_frequencies.
  function inverseFrequencies(dModel, base = 10000) {
    const d = checkDModel(dModel);
    const b = checkBase(base);
    const w = new Float64Array(d / 2);
    for (let i = 0; i < w.length; i++) w[i] = Math.pow(b, -((2 * i) / d));
    return w;
  }

  // The table PE[p, 2i] = sin(p w_i), PE[p, 2i + 1] = cos(p w_i): an array of maxLen Float64Array rows.
  // Arguments are checked in pe_docs' order (max_len, d_model, base), with pe_docs' messages.
  function sinusoidalTable(maxLen, dModel, base = 10000) {
    const n = checkInt("max_len", maxLen, 1);
    const d = checkDModel(dModel);
    const w = inverseFrequencies(d, checkBase(base));
    const rows = new Array(n);
    for (let p = 0; p < n; p++) {
      const row = new Float64Array(d);
      for (let i = 0; i < w.length; i++) {
        const phase = p * w[i];
        row[2 * i] = Math.sin(phase);
        row[2 * i + 1] = Math.cos(phase);
      }
      rows[p] = row;
    }
    return rows;
  }

  // λ_i = 2π / w_i, in positions (pe_docs.wavelengths).
  function wavelengths(dModel, base = 10000) {
    const w = inverseFrequencies(dModel, base);
    return w.map((x) => (2 * Math.PI) / x);
  }

  // PE[p] · PE[p + k] for k = -p … maxLen - 1 - p, summed from the rows of `table`; entry j is k = j - p.
  function rowDots(table, p) {
    const a = table[p];
    const out = new Float64Array(table.length);
    for (let q = 0; q < table.length; q++) {
      const b = table[q];
      let s = 0;
      for (let j = 0; j < a.length; j++) s += a[j] * b[j];
      out[q] = s;
    }
    return out;
  }

  const api = { sinusoidalTable, inverseFrequencies, wavelengths, rowDots };
  window.peDocs = Object.assign(window.peDocs || {}, api);

  // ---- the page's language --------------------------------------------------------------------------------

  // The explorer's own limits (the computation has none): a 2048 × 1024 table is 2 M sines and cosines.
  const LIMITS = { d_model: 1024, max_len: 2048 };

  const TEXT = {
    en: {
      d_model: "d_model (even)",
      base: "base",
      max_len: "positions (max_len)",
      position: "position p to inspect",
      columns: "columns to plot (1 to 3)",
      heatmap: "The table: positions down, dimensions across",
      shrunk: (r, c) => ` (shrunk to fit: each pixel is the mean of about ${r} × ${c} cells)`,
      curves: "The chosen columns against position",
      wavelengths: "Wavelength of each (sin, cos) pair, log scale",
      dots: "Dot product PE[p]·PE[p+k] against the offset k",
      dimension: "dimension",
      positionAxis: "position",
      value: "value",
      pair: "pair i",
      wavelength: "wavelength (positions)",
      offset: "offset k",
      column: (c) => `column ${c}`,
      heatmapLabel: (n, d, p) =>
        `Heatmap of the ${n} × ${d} table, from −1 (blue) through 0 (white) to 1 (red); row p = ${p} is marked.`,
      curvesLabel: (cols, n) => `Columns ${cols.join(", ")} of the table over positions 0 to ${n - 1}.`,
      wavelengthsLabel: (h, lo, hi) =>
        `The ${h} wavelengths on a log scale, from ${lo} to ${hi} positions; the dashed line is max_len.`,
      dotsLabel: (p, lo, hi) => `PE[${p}]·PE[${p}+k] for k from ${lo} to ${hi}.`,
      summary: (s) =>
        `${s.n} × ${s.d} table, base ${s.base}. ` +
        (s.h === 1
          ? `One pair, wavelength ${s.lo} positions. `
          : `${s.h} wavelengths from ${s.lo} to ${s.hi} positions, each ${s.ratio} times the previous. `) +
        `Row ${s.p}: [${s.row}]. ` +
        (s.dot === null ? "" : `PE[p]·PE[p${s.sign}1] = ${s.dot} (cosine similarity ${s.cos}).`),
      errors: {
        integer: (e) => `${e.argument} must be an integer, got ${show(e.value)}`,
        min: (e) => `${e.argument} must be >= ${e.limit}, got ${show(e.value)}`,
        max: (e) => `${e.argument} must be <= ${e.limit} in this explorer, got ${show(e.value)}`,
        below: (e) => `${e.argument} must be < max_len = ${e.limit}, got ${show(e.value)}`,
        even: (e) => `d_model must be even (each frequency fills one sin and one cos column), got ${show(e.value)}`,
        real: (e) => `${e.argument} must be a real number, got ${show(e.value)}`,
        positive: (e) => `base must be finite and > 0, got ${show(e.value)}`,
        empty: (e) => `${e.argument} is empty or not a number`,
        column: (e) => `columns must be integers from 0 to d_model - 1 = ${e.limit}, got ${e.value}`,
        count: (e) => `columns must list 1 to 3 column numbers, got ${e.value}`,
      },
    },
    zh: {
      d_model: "维度 d_model（偶数）",
      base: "底数 base",
      max_len: "位置数 max_len",
      position: "查看的位置 p",
      columns: "绘制的列（1 到 3 个）",
      heatmap: "编码表：纵向是位置，横向是维度",
      shrunk: (r, c) => `（为放进图中而缩小：每个像素是约 ${r} × ${c} 个格子的平均）`,
      curves: "所选各列随位置的变化",
      wavelengths: "每个 (sin, cos) 对的波长（对数坐标）",
      dots: "点积 PE[p]·PE[p+k] 随偏移 k 的变化",
      dimension: "维度",
      positionAxis: "位置",
      value: "取值",
      pair: "第 i 对",
      wavelength: "波长（位置数）",
      offset: "偏移 k",
      column: (c) => `第 ${c} 列`,
      heatmapLabel: (n, d, p) => `${n} × ${d} 编码表的热力图，取值从 −1（蓝）经 0（白）到 1（红）；标出了第 p = ${p} 行。`,
      curvesLabel: (cols, n) => `编码表第 ${cols.join("、")} 列在位置 0 到 ${n - 1} 上的取值。`,
      wavelengthsLabel: (h, lo, hi) => `${h} 个波长（对数坐标），从 ${lo} 到 ${hi} 个位置；虚线是 max_len。`,
      dotsLabel: (p, lo, hi) => `PE[${p}]·PE[${p}+k]，k 从 ${lo} 到 ${hi}。`,
      summary: (s) =>
        `${s.n} × ${s.d} 的编码表，底数 ${s.base}。` +
        (s.h === 1
          ? `只有一对，波长 ${s.lo} 个位置。`
          : `${s.h} 个波长，从 ${s.lo} 到 ${s.hi} 个位置，相邻两个之比为 ${s.ratio}。`) +
        `第 ${s.p} 行：[${s.row}]。` +
        (s.dot === null ? "" : `PE[p]·PE[p${s.sign}1] = ${s.dot}（余弦相似度 ${s.cos}）。`),
      errors: {
        integer: (e) => `${e.argument} 必须是整数，收到的是 ${show(e.value)}`,
        min: (e) => `${e.argument} 必须 ≥ ${e.limit}，收到的是 ${show(e.value)}`,
        max: (e) => `${e.argument} 在这个交互演示里最大为 ${e.limit}，收到的是 ${show(e.value)}`,
        below: (e) => `${e.argument} 必须小于 max_len = ${e.limit}，收到的是 ${show(e.value)}`,
        even: (e) => `d_model 必须是偶数（每个频率占一列正弦、一列余弦），收到的是 ${show(e.value)}`,
        real: (e) => `${e.argument} 必须是实数，收到的是 ${show(e.value)}`,
        positive: (e) => `base 必须是有限的正数，收到的是 ${show(e.value)}`,
        empty: (e) => `${e.argument} 为空或不是数字`,
        column: (e) => `columns 中的列号必须是 0 到 d_model − 1 = ${e.limit} 之间的整数，收到的是 ${e.value}`,
        count: (e) => `columns 需要 1 到 3 个列号，收到的是 ${e.value}`,
      },
    },
  };

  function language() {
    return (document.documentElement.lang || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
  }

  // ---- drawing helpers ------------------------------------------------------------------------------------

  // RdBu_r, the colour map of the build-time heatmap (pe_docs.plotting.table), as 11 stops: −1 … 1.
  const STOPS = ["#053061", "#2065ab", "#4393c3", "#90c4dd", "#d1e5f0", "#f7f6f6", "#fddbc7", "#f3a481",
    "#d6604d", "#b1182b", "#67001f"].map((h) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16)));
  const LUT = new Uint8Array(256 * 3);
  for (let j = 0; j < 256; j++) {
    const t = (j / 255) * (STOPS.length - 1);
    const k = Math.min(STOPS.length - 2, Math.floor(t));
    const f = t - k;
    for (let c = 0; c < 3; c++) LUT[3 * j + c] = Math.round(STOPS[k][c] * (1 - f) + STOPS[k + 1][c] * f);
  }
  // The colour cycle of the build-time figures (pe_docs.plotting._style.CYCLE): readable on both schemes.
  const CYCLE = ["#3b82f6", "#f97316", "#10b981"];

  // Material's colours of the current scheme, resolved to rgb() by the browser.
  function schemeColours(root) {
    const probe = document.createElement("span");
    probe.hidden = true;
    root.appendChild(probe);
    const read = (name) => {
      probe.style.color = `var(${name})`;
      return getComputedStyle(probe).color;
    };
    const colours = {
      fg: read("--md-default-fg-color"),
      light: read("--md-default-fg-color--light"),
      lightest: read("--md-default-fg-color--lightest"),
      font: getComputedStyle(root).fontFamily,
    };
    probe.remove();
    return colours;
  }

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

  const power10 = (e) => `10${String(e).replace(/./g, (ch) => SUPERSCRIPT[ch])}`;

  const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

  // A number for the reader: 4 significant digits, thousands separated by a narrow space.
  function fmt(x, digits = 4) {
    if (x === 0) return "0";
    const a = Math.abs(x);
    if (a >= 1e15 || a < 1e-4) {
      const [m, e] = x.toExponential(digits - 1).split("e");
      return `${Number(m)}·${power10(Number(e))}`;
    }
    let s = a >= Math.pow(10, digits) ? String(Math.round(x)) : String(Number(x.toPrecision(digits)));
    if (/^-?\d{5,}/.test(s)) s = s.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
    return s.replace("-", "−");
  }

  // Size the canvas to its box (device pixels) and return a context in CSS pixels.
  function prepare(canvas) {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, canvas.clientWidth);
    const height = Math.max(1, canvas.clientHeight);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    return { ctx, width, height };
  }

  // Axes with ticks and labels; returns the data-to-pixel maps. `y.log` plots log10 of the values.
  function axes(ctx, box, colours, spec) {
    const m = { left: 52, right: spec.right || 12, top: 10, bottom: 38 };
    const x0 = m.left;
    const x1 = box.width - m.right;
    const y0 = box.height - m.bottom;
    const y1 = m.top;
    const ty = (v) => (spec.y.log ? Math.log10(v) : v);
    const [ylo, yhi] = [ty(spec.y.lo), ty(spec.y.hi)];
    const sx = (v) => x0 + ((v - spec.x.lo) / (spec.x.hi - spec.x.lo || 1)) * (x1 - x0);
    const sy = spec.y.down
      ? (v) => y1 + ((ty(v) - ylo) / (yhi - ylo || 1)) * (y0 - y1)
      : (v) => y0 - ((ty(v) - ylo) / (yhi - ylo || 1)) * (y0 - y1);
    ctx.font = `11px ${colours.font}`;
    ctx.strokeStyle = colours.light;
    ctx.fillStyle = colours.fg;
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 + 0.5, y1 + 0.5, x1 - x0, y0 - y1);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const xticks = spec.x.ticks || niceTicks(spec.x.lo, spec.x.hi, Math.max(2, Math.floor((x1 - x0) / 70)));
    for (const v of xticks) {
      const px = sx(v + (spec.x.offset || 0));
      ctx.beginPath();
      ctx.moveTo(px, y0);
      ctx.lineTo(px, y0 + 4);
      ctx.stroke();
      ctx.fillText(fmt(v), px, y0 + 6);
    }
    ctx.fillText(spec.x.label, (x0 + x1) / 2, y0 + 22);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    let yticks;
    let ylabel = fmt;
    if (spec.y.ticks) yticks = spec.y.ticks;
    else if (spec.y.log && yhi - ylo >= 1) {
      yticks = [];
      const step = Math.ceil((Math.ceil(yhi) - Math.floor(ylo)) / Math.max(2, Math.floor((y0 - y1) / 28)));
      for (let e = Math.ceil(ylo); e <= yhi; e += step) yticks.push(Math.pow(10, e));
      ylabel = (v) => power10(Math.round(Math.log10(v)));
    } else if (spec.y.log) {
      yticks = niceTicks(spec.y.lo, spec.y.hi, 3).filter((v) => v > 0);
    } else yticks = niceTicks(spec.y.lo, spec.y.hi, Math.max(2, Math.floor((y0 - y1) / 32)));
    for (const v of yticks) {
      const py = sy(v + (spec.y.offset || 0));
      ctx.beginPath();
      ctx.moveTo(x0 - 4, py);
      ctx.lineTo(x0, py);
      ctx.stroke();
      ctx.fillText(ylabel(v), x0 - 6, py);
    }
    ctx.save();
    ctx.translate(12, (y0 + y1) / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "center";
    ctx.fillText(spec.y.label, 0, 0);
    ctx.restore();
    return { sx, sy, x0, x1, y0, y1 };
  }

  function polyline(ctx, xs, ys, sx, sy) {
    ctx.beginPath();
    for (let j = 0; j < ys.length; j++) {
      const px = sx(xs(j));
      const py = sy(ys[j]);
      if (j) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
    }
    ctx.stroke();
  }

  function dashed(ctx, colour, x0, y0, x1, y1) {
    ctx.save();
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.restore();
  }

  // ---- the four views -------------------------------------------------------------------------------------

  function drawHeatmap(canvas, s, colours, t) {
    const box = prepare(canvas);
    const { ctx } = box;
    const n = s.table.length;
    const d = s.d;
    const a = axes(ctx, box, colours, {
      right: 46,
      x: { lo: 0, hi: d, label: t.dimension, ticks: niceTicks(0, d - 1, 5, true), offset: 0.5 },
      y: { lo: 0, hi: n, down: true, label: t.positionAxis, ticks: niceTicks(0, n - 1, 5, true), offset: 0.5 },
    });
    // A table larger than the plot (in device pixels) is shrunk by averaging whole blocks of cells (a box
    // filter): sampling every 8th row of a fast column would draw a pattern that is not in the table.
    const ratio = window.devicePixelRatio || 1;
    const w = a.x1 - a.x0;
    const h = a.y0 - a.y1;
    const W = Math.max(1, Math.min(d, Math.floor(w * ratio)));
    const H = Math.max(1, Math.min(n, Math.floor(h * ratio)));
    const colBin = new Int32Array(d).map((_, j) => Math.floor((j * W) / d));
    const colCount = new Float64Array(W);
    for (const x of colBin) colCount[x] += 1;
    const sums = new Float64Array(W * H);
    const rowCount = new Float64Array(H);
    for (let p = 0; p < n; p++) {
      const y = Math.floor((p * H) / n);
      rowCount[y] += 1;
      const row = s.table[p];
      const o = y * W;
      for (let j = 0; j < d; j++) sums[o + colBin[j]] += row[j];
    }
    const image = new ImageData(W, H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const v = sums[y * W + x] / (rowCount[y] * colCount[x]);
        const k = 3 * Math.max(0, Math.min(255, Math.round(((v + 1) / 2) * 255)));
        const o = 4 * (y * W + x);
        image.data[o] = LUT[k];
        image.data[o + 1] = LUT[k + 1];
        image.data[o + 2] = LUT[k + 2];
        image.data[o + 3] = 255;
      }
    }
    const cells = document.createElement("canvas");
    cells.width = W;
    cells.height = H;
    cells.getContext("2d").putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = false; // enlarged cells stay sharp
    ctx.drawImage(cells, a.x0, a.y1, w, h);
    canvas.dataset.image = `${H}x${W}`;
    canvas.dataset.plot = [a.x0, a.y1, w, h].join(" ");
    s.image = image; // what was drawn, cell by cell (the tests compare it with pe_docs)
    // the inspected row
    const py = a.sy(s.p + 0.5);
    ctx.strokeStyle = colours.fg;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(a.x0 - 6, py);
    ctx.lineTo(a.x0, py);
    ctx.moveTo(a.x1, py);
    ctx.lineTo(a.x1 + 6, py);
    ctx.stroke();
    // colour bar: 1 at the top, −1 at the bottom
    const bx = a.x1 + 14;
    for (let y = 0; y < h; y++) {
      const k = 3 * Math.round((1 - y / Math.max(1, h - 1)) * 255);
      ctx.fillStyle = `rgb(${LUT[k]},${LUT[k + 1]},${LUT[k + 2]})`;
      ctx.fillRect(bx, a.y1 + y, 8, 1);
    }
    ctx.fillStyle = colours.fg;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText("1", bx + 11, a.y1 + 4);
    ctx.fillText("0", bx + 11, a.y1 + h / 2);
    ctx.fillText(fmt(-1), bx + 11, a.y0 - 4);
    canvas.dataset.rows = String(n);
    canvas.dataset.cols = String(d);
    return n > H || d > W ? t.shrunk(fmt(n / H, 2), fmt(d / W, 2)) : "";
  }

  function drawCurves(canvas, s, colours, t) {
    const box = prepare(canvas);
    const { ctx } = box;
    const n = s.table.length;
    const a = axes(ctx, box, colours, {
      x: { lo: 0, hi: Math.max(1, n - 1), label: t.positionAxis },
      y: { lo: -1.1, hi: 1.1, label: t.value, ticks: [-1, -0.5, 0, 0.5, 1] },
    });
    dashed(ctx, colours.light, a.sx(s.p), a.y1, a.sx(s.p), a.y0);
    ctx.lineWidth = 1.6;
    s.columns.forEach((_, k) => {
      ctx.strokeStyle = CYCLE[k];
      ctx.fillStyle = CYCLE[k];
      const ys = s.curves[k];
      if (n === 1) {
        ctx.beginPath();
        ctx.arc(a.sx(0), a.sy(ys[0]), 3, 0, 2 * Math.PI);
        ctx.fill();
      } else polyline(ctx, (j) => j, ys, a.sx, a.sy);
    });
    canvas.dataset.columns = s.columns.join(" ");
  }

  function drawWavelengths(canvas, s, colours, t) {
    const box = prepare(canvas);
    const { ctx } = box;
    const h = s.lambda.length;
    let lo = Math.min(...s.lambda, s.table.length);
    let hi = Math.max(...s.lambda, s.table.length);
    if (hi / lo < 10) {
      lo /= 2;
      hi *= 2;
    }
    const a = axes(ctx, box, colours, {
      x: { lo: 0, hi: Math.max(1, h - 1), label: t.pair },
      y: { lo, hi, log: true, label: t.wavelength },
    });
    const yl = a.sy(s.table.length);
    dashed(ctx, colours.light, a.x0, yl, a.x1, yl);
    ctx.fillStyle = colours.light;
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    ctx.fillText("max_len", a.x0 + 4, yl - 2);
    ctx.strokeStyle = CYCLE[0];
    ctx.fillStyle = CYCLE[0];
    ctx.lineWidth = 1.6;
    if (h > 1) polyline(ctx, (j) => j, s.lambda, a.sx, a.sy);
    if (h <= 64) {
      for (let i = 0; i < h; i++) {
        ctx.beginPath();
        ctx.arc(a.sx(i), a.sy(s.lambda[i]), 2.5, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    canvas.dataset.pairs = String(h);
  }

  function drawDots(canvas, s, colours, t) {
    const box = prepare(canvas);
    const { ctx } = box;
    const n = s.table.length;
    const kLo = -s.p;
    const kHi = n - 1 - s.p;
    const half = s.d / 2;
    const a = axes(ctx, box, colours, {
      x: kLo < kHi ? { lo: kLo, hi: kHi, label: t.offset } : { lo: kLo - 1, hi: kHi + 1, label: t.offset, ticks: [0] },
      y: { lo: -half * 1.05, hi: half * 1.05, label: "PE[p]·PE[p+k]", ticks: [-half, -half / 2, 0, half / 2, half] },
    });
    dashed(ctx, colours.light, a.x0, a.sy(0), a.x1, a.sy(0));
    ctx.strokeStyle = CYCLE[0];
    ctx.fillStyle = CYCLE[0];
    ctx.lineWidth = 1.4;
    if (n > 1) polyline(ctx, (j) => j + kLo, s.dots, a.sx, a.sy);
    ctx.beginPath();
    ctx.arc(a.sx(0), a.sy(s.dots[s.p]), 3, 0, 2 * Math.PI);
    ctx.fill();
    canvas.dataset.kmin = String(kLo);
    canvas.dataset.kmax = String(kHi);
  }

  // ---- one explorer ---------------------------------------------------------------------------------------

  let counter = 0;
  const FIELDS = [
    { key: "d_model", data: "dModel", fallback: "128", attrs: { min: 2, max: LIMITS.d_model, step: 2 } },
    { key: "base", data: "base", fallback: "10000", attrs: { step: "any" } },
    { key: "max_len", data: "maxLen", fallback: "100", attrs: { min: 1, max: LIMITS.max_len, step: 1 } },
    { key: "position", data: "position", fallback: "0", attrs: { min: 0, step: 1 } },
    { key: "columns", data: "columns", fallback: "0 10 50", text: true },
  ];

  function element(tag, props, children) {
    const el = document.createElement(tag);
    Object.assign(el, props || {});
    for (const child of children || []) el.append(child);
    return el;
  }

  function readNumber(input, name) {
    const raw = input.value.trim();
    if (raw === "" || input.validity.badInput) throw argumentError(TypeError, `${name} is empty`, name, raw, "empty");
    return Number(raw);
  }

  // The inputs as numbers, checked; throws an error carrying `argument`, `value`, `rule`, `limit`.
  function readInputs(inputs) {
    const maxLen = readNumber(inputs.max_len, "max_len");
    const d = readNumber(inputs.d_model, "d_model");
    const base = readNumber(inputs.base, "base");
    checkInt("max_len", maxLen, 1);
    checkDModel(d);
    checkBase(base);
    for (const [name, value] of [["d_model", d], ["max_len", maxLen]]) {
      if (value > LIMITS[name]) throw argumentError(RangeError, `${name} too large`, name, value, "max", LIMITS[name]);
    }
    const p = checkInt("position", readNumber(inputs.position, "position"), 0);
    if (p >= maxLen) throw argumentError(RangeError, "position too large", "position", p, "below", maxLen);
    const words = inputs.columns.value.split(/[\s,，、;；]+/).filter(Boolean);
    if (words.length < 1 || words.length > 3) {
      throw argumentError(RangeError, "1 to 3 columns", "columns", inputs.columns.value.trim() || "∅", "count");
    }
    const columns = words.map((w) => {
      const c = Number(w);
      if (!/^\d+$/.test(w) || c >= d) throw argumentError(RangeError, "bad column", "columns", w, "column", d - 1);
      return c;
    });
    return { maxLen, d, base, p, columns };
  }

  // The settings in the page's address: query parameters table.<field> (one table explorer per page uses them).
  const ADDRESS = "table";
  function readAddress() {
    const out = {};
    for (const [k, v] of new URLSearchParams(location.search)) {
      if (k.startsWith(`${ADDRESS}.`)) out[k.slice(ADDRESS.length + 1)] = v;
    }
    return out;
  }
  function writeAddress(inputs, anchor) {
    const url = new URL(location.href);
    for (const k of [...url.searchParams.keys()]) if (k.startsWith(`${ADDRESS}.`)) url.searchParams.delete(k);
    for (const [k, input] of Object.entries(inputs)) url.searchParams.set(`${ADDRESS}.${k}`, input.value);
    if (anchor) url.hash = anchor;
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  function create(root) {
    const id = `pe-explorer-${++counter}`;
    const owner = counter === 1; // the page's first explorer keeps its settings in the address
    if (!root.id && owner) root.id = "table-explorer";
    const saved = owner ? readAddress() : {};
    const lang = language();
    const t = TEXT[lang];
    const inputs = {};
    const form = element("form", { className: "pe-explorer__controls", noValidate: true });
    for (const f of FIELDS) {
      const input = element("input", {
        id: `${id}-${f.key}`,
        name: f.key,
        type: f.text ? "text" : "number",
        value: f.key in saved ? saved[f.key] : root.dataset[f.data] || f.fallback,
        autocomplete: "off",
      });
      if (!f.text) input.inputMode = f.key === "base" ? "decimal" : "numeric";
      for (const [k, v] of Object.entries(f.attrs || {})) input.setAttribute(k, v);
      const label = element("label", { htmlFor: input.id, textContent: t[f.key] });
      form.append(element("div", { className: "pe-explorer__field" }, [label, input]));
      inputs[f.key] = input;
    }
    const error = element("p", { className: "pe-explorer__error", id: `${id}-error`, hidden: true });
    error.setAttribute("role", "alert");
    const summary = element("p", { className: "pe-explorer__summary" });
    summary.setAttribute("aria-live", "polite");
    const views = element("div", { className: "pe-explorer__views" });
    const canvases = {};
    const captions = {};
    // The curves' legend is text (the canvas's aria-label names the columns too).
    const legend = element("div", { className: "pe-explorer__legend" });
    legend.setAttribute("aria-hidden", "true");
    for (const name of ["heatmap", "curves", "wavelengths", "dots"]) {
      const canvas = element("canvas", { className: `pe-explorer__canvas pe-explorer__canvas--${name}` });
      canvas.setAttribute("role", "img");
      canvases[name] = canvas;
      const caption = element("figcaption", { textContent: t[name] });
      captions[name] = caption;
      views.append(element("figure", { className: `pe-explorer__view pe-explorer__view--${name}` },
        name === "curves" ? [caption, legend, canvas] : [caption, canvas]));
    }
    root.replaceChildren(form, error, summary, views);
    root.classList.add("pe-explorer--ready");

    const state = { root, inputs, canvases, lang, error: null, data: null, draws: 0 };
    root.peExplorer = state;

    // `write`: a change by the reader, written into the address (not the first computation).
    function compute(write = true) {
      if (write && owner) writeAddress(inputs, root.id);
      let params;
      try {
        params = readInputs(inputs);
      } catch (err) {
        if (err.rule === undefined) throw err;
        return fail(err);
      }
      const table = sinusoidalTable(params.maxLen, params.d, params.base);
      state.data = {
        ...params,
        table,
        lambda: wavelengths(params.d, params.base),
        dots: rowDots(table, params.p),
        curves: params.columns.map((c) => Float64Array.from(table, (row) => row[c])),
      };
      state.error = null;
      for (const input of Object.values(inputs)) input.removeAttribute("aria-invalid");
      error.hidden = true;
      error.textContent = "";
      views.hidden = false;
      root.dataset.state = "ok";
      inputs.position.max = String(params.maxLen - 1);
      describe();
      draw();
    }

    function fail(err) {
      const message = t.errors[err.rule](err);
      state.error = message;
      state.data = null;
      for (const [key, input] of Object.entries(inputs)) {
        if (key === err.argument) {
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
      summary.textContent = "";
      root.dataset.state = "error";
    }

    function describe() {
      const s = state.data;
      const n = s.table.length;
      const h = s.lambda.length;
      const k = s.p + 1 < n ? 1 : s.p > 0 ? -1 : 0;
      const row = Array.from(s.table[s.p].slice(0, 6), (v) => v.toFixed(4).replace("-", "−"));
      summary.textContent = t.summary({
        n, d: s.d, base: fmt(s.base, 6), h, p: s.p,
        lo: fmt(s.lambda[0]), hi: fmt(s.lambda[h - 1]),
        ratio: h > 1 ? fmt(s.lambda[1] / s.lambda[0], 5) : "",
        row: row.join(", ") + (s.d > 6 ? ", …" : ""),
        dot: k ? fmt(s.dots[s.p + k]) : null,
        sign: k > 0 ? "+" : "−",
        cos: k ? (s.dots[s.p + k] / (s.d / 2)).toFixed(3).replace("-", "−") : null,
      });
      legend.replaceChildren(...s.columns.map((c, k) => element("span", {}, [
        element("span", { className: "pe-explorer__swatch", style: `background: ${CYCLE[k]}` }), t.column(c)])));
      canvases.heatmap.setAttribute("aria-label", t.heatmapLabel(n, s.d, s.p));
      canvases.curves.setAttribute("aria-label", t.curvesLabel(s.columns, n));
      canvases.wavelengths.setAttribute("aria-label", t.wavelengthsLabel(h, fmt(s.lambda[0]), fmt(s.lambda[h - 1])));
      canvases.dots.setAttribute("aria-label", t.dotsLabel(s.p, -s.p, n - 1 - s.p));
    }

    function draw() {
      if (!state.data || views.hidden) return;
      const colours = schemeColours(root);
      captions.heatmap.textContent = t.heatmap + drawHeatmap(canvases.heatmap, state.data, colours, t);
      drawCurves(canvases.curves, state.data, colours, t);
      drawWavelengths(canvases.wavelengths, state.data, colours, t);
      drawDots(canvases.dots, state.data, colours, t);
      state.draws += 1;
      root.dataset.draws = String(state.draws);
      root.dataset.fg = colours.fg;
      root.dataset.scheme = document.body.getAttribute("data-md-color-scheme") || "";
    }

    // Typing updates after a short pause (so "1024" does not flash errors for 1, 10, 102); Enter, Tab and
    // leaving the field (change, submit) update at once.
    let timer = 0;
    const now = () => {
      clearTimeout(timer);
      compute();
    };
    form.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => compute(), 300);
    });
    form.addEventListener("change", now);
    // A form of several fields has no implicit submission: Enter is handled here.
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        now();
      }
    });
    form.addEventListener("submit", (event) => event.preventDefault());
    let lastWidth = root.clientWidth;
    new ResizeObserver(() => {
      if (root.clientWidth !== lastWidth) {
        lastWidth = root.clientWidth;
        draw();
      }
    }).observe(root);
    new MutationObserver(draw).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    state.update = now;
    state.draw = draw;
    compute(false);
    return state;
  }

  function init() {
    for (const root of document.querySelectorAll(".pe-explorer")) if (!root.peExplorer) create(root);
  }

  window.peDocs.createExplorer = create;
  // Material re-emits document$ on every page load (also with instant navigation); without it, run once.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) window.document$.subscribe(init);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
