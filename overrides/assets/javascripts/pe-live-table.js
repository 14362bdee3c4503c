// The table of the sinusoidal encoding, live (formula, wavelength; pe-live.js has the frame): d_model, base, max_len,
// a position p and up to three columns give four views: the table as a heatmap, the chosen columns against position,
// the wavelength of every pair, and the dot product PE[p]·PE[p+k] against k. The table is computed here in float64,
// as window.peDocs.sinusoidalTable(maxLen, dModel, base) ≙ pe_docs.sinusoidal_table(..., dtype=torch.float64):
// w_i = base ** -(2i / d), the phase p · w_i, its sine and cosine.
(function () {
  "use strict";

  const live = window.peDocs.live;
  const { fmt, svg, r2, path, chart, figure, indexed } = live;

  // PE[p, 2i] = sin(p w_i), PE[p, 2i + 1] = cos(p w_i): maxLen Float64Array rows (the fields have checked the
  // settings).
  function sinusoidalTable(maxLen, dModel, base = 10000) {
    const w = window.peDocs.inverseFrequencies(dModel, base);
    return Array.from({ length: maxLen }, (_, p) => {
      const row = new Float64Array(2 * w.length);
      w.forEach((x, i) => {
        row[2 * i] = Math.sin(p * x);
        row[2 * i + 1] = Math.cos(p * x);
      });
      return row;
    });
  }

  // λ_i = 2π / w_i, in positions (pe_docs.wavelengths).
  const wavelengths = (dModel, base) => window.peDocs.inverseFrequencies(dModel, base).map((w) => (2 * Math.PI) / w);

  // PE[p] · PE[q] for every row q of `table` (entry q is the offset k = q − p).
  const rowDots = (table, p) => Float64Array.from(table, (row) => live.dot(table[p], row));

  Object.assign(window.peDocs, { sinusoidalTable, wavelengths, rowDots });

  // RdBu_r, the colour map of the build-time heatmap (pe_docs.plotting.table), as 11 stops: −1 … 1.
  const STOPS = ["#053061", "#2065ab", "#4393c3", "#90c4dd", "#d1e5f0", "#f7f6f6", "#fddbc7", "#f3a481", "#d6604d",
    "#b1182b", "#67001f"];
  const LUT = Uint8Array.from({ length: 256 * 3 }, (_, o) => { // 256 colours, [r, g, b] each
    const [t, c] = [(Math.floor(o / 3) / 255) * (STOPS.length - 1), o % 3];
    const k = Math.min(STOPS.length - 2, Math.floor(t));
    const [a, b] = [STOPS[k], STOPS[k + 1]].map((h) => parseInt(h.slice(1 + 2 * c, 3 + 2 * c), 16));
    return Math.round(a * (1 - (t - k)) + b * (t - k));
  });

  const TEXT = {
    en: {
      d_model: "d_model (even)",
      max_len: "positions (max_len)",
      position: "position p to inspect",
      columns: "columns to plot (1 to 3)",
      heatmap: "The table: positions down, columns across",
      shrunk: (r, c) => ` (shrunk to fit: each pixel is the mean of about ${r} × ${c} cells, so a column that swings
        faster than that looks pale)`,
      curves: "The chosen columns against position",
      wavelengths: "Wavelength of each (sin, cos) pair, log scale",
      dots: "Dot product PE[p]·PE[p+k] against the offset k",
      dimension: "column",
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
      summary: (s) => `${s.n} × ${s.d} table, base ${s.base}. `
        + (s.h === 1 ? `One pair, wavelength ${s.lo} positions. `
          : `${s.h} wavelengths from ${s.lo} to ${s.hi} positions, each ${s.ratio} times the previous. `)
        + `Row ${s.p}: [${s.row}]. `
        + (s.dot === null ? "" : `PE[p]·PE[p${s.sign}1] = ${s.dot} (cosine similarity ${s.cos}).`),
    },
    zh: {
      d_model: "宽度 d_model（偶数）",
      base: "底数 base",
      max_len: "位置数 max_len",
      position: "查看的位置 p",
      columns: "绘制的列（1 到 3 个）",
      heatmap: "编码表：纵向是位置，横向是列",
      shrunk: (r, c) => `（为放进图中而缩小：每个像素是约 ${r} × ${c} 个格子的平均，所以变化比这更快的列颜色很浅）`,
      curves: "所选各列随位置的变化",
      wavelengths: "每个 (sin, cos) 对的波长（对数坐标）",
      dots: "点积 PE[p]·PE[p+k] 随偏移 k 的变化",
      dimension: "列",
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
      summary: (s) => `${s.n} × ${s.d} 的编码表，底数 ${s.base}。`
        + (s.h === 1 ? `只有一对，波长 ${s.lo} 个位置。`
          : `${s.h} 个波长，从 ${s.lo} 到 ${s.hi} 个位置，后一个与前一个之比为 ${s.ratio}。`)
        + `第 ${s.p} 行：[${s.row}]。`
        + (s.dot === null ? "" : `PE[p]·PE[p${s.sign}1] = ${s.dot}（余弦相似度 ${s.cos}）。`),
    },
  };

  // The settings, read by the frame; the columns: 1 to 3 whole numbers below d_model (a smaller d_model clamps them).
  function compute(v) {
    const words = v.columns.split(/[\s,，、;；]+/).filter(Boolean);
    if (words.length < 1 || words.length > 3) {
      throw live.argumentError("count", "columns", v.columns.trim() || "∅");
    }
    const whole = words.every((w) => /^\d+$/.test(w));
    const bad = words.find((w) => !/^\d+$/.test(w) || Number(w) >= v.d_model);
    if (bad !== undefined) {
      const fix = whole ? [...new Set(words.map((w) => Math.min(Number(w), v.d_model - 1)))].join(" ") : undefined;
      throw live.argumentError("column", "columns", bad, v.d_model - 1, { fix });
    }
    const columns = words.map(Number);
    const table = sinusoidalTable(v.max_len, v.d_model, v.base);
    return { n: v.max_len, d: v.d_model, base: v.base, p: v.position, columns, table,
      lambda: wavelengths(v.d_model, v.base), dots: rowDots(table, v.position),
      curves: columns.map((c) => Float64Array.from(table, (row) => row[c])) };
  }

  // The table as an image: a table larger than the plot (in device pixels) is shrunk by averaging whole blocks of
  // cells (a box filter: sampling every 8th row of a fast column would draw a pattern that is not in the table).
  function heatmap(s, ctx, width) {
    const { t } = ctx;
    const centres = (count) => live.niceTicks(0, count - 1, 5, true).map((x) => x + 0.5);
    const a = chart(width, Math.min(320, Math.max(220, 40 + 2 * s.n)), {
      label: t.heatmapLabel(s.n, s.d, s.p), margin: { right: 46 },
      x: { lo: 0, hi: s.d, label: t.dimension, ticks: centres(s.d), format: (x) => fmt(x - 0.5) },
      y: { lo: s.n, hi: 0, label: t.positionAxis, ticks: centres(s.n), format: (x) => fmt(x - 0.5) },
    });
    const [w, h] = [a.x1 - a.x0, a.y0 - a.y1];
    const ratio = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.min(s.d, Math.floor(w * ratio)));
    const H = Math.max(1, Math.min(s.n, Math.floor(h * ratio)));
    const colBin = Int32Array.from({ length: s.d }, (_, j) => Math.floor((j * W) / s.d));
    const colCount = new Float64Array(W);
    colBin.forEach((x) => (colCount[x] += 1));
    const sums = new Float64Array(W * H);
    const rowCount = new Float64Array(H);
    s.table.forEach((row, p) => {
      const y = Math.floor((p * H) / s.n);
      rowCount[y] += 1;
      row.forEach((x, j) => (sums[y * W + colBin[j]] += x));
    });
    const image = new ImageData(W, H);
    sums.forEach((sum, o) => {
      const v = sum / (rowCount[Math.floor(o / W)] * colCount[o % W]);
      const k = 3 * Math.max(0, Math.min(255, Math.round(((v + 1) / 2) * 255)));
      image.data.set([LUT[k], LUT[k + 1], LUT[k + 2], 255], 4 * o);
    });
    const cells = Object.assign(document.createElement("canvas"), { width: W, height: H });
    cells.getContext("2d").putImageData(image, 0, 0);
    Object.assign(s, { image, plot: [a.x0, a.y1, w, h] }); // what was drawn, cell by cell (the tests compare it)
    a.plot.append(svg("image", { href: cells.toDataURL(), x: a.x0, y: a.y1, width: w, height: h,
      preserveAspectRatio: "none", class: "pe-live__raster" }));
    // the inspected row, marked on both sides; the colour bar: 1 at the top, −1 at the bottom
    const py = r2(a.sy(s.p + 0.5));
    a.svg.append(svg("path", { class: "pe-live__line pe-live__cfg", d: `M${a.x0 - 6} ${py}h6M${a.x1} ${py}h6` }));
    const id = `${ctx.id}-colours`;
    a.svg.append(svg("linearGradient", { id, x1: 0, y1: 1, x2: 0, y2: 0 },
      STOPS.map((c, k) => svg("stop", { offset: k / 10, "stop-color": c }))));
    a.svg.append(svg("rect", { x: a.x1 + 14, y: a.y1, width: 8, height: h, fill: `url(#${id})` }));
    for (const [text, y] of [["1", a.y1 + 4], ["0", a.y1 + h / 2 + 4], ["−1", a.y0]]) {
      a.svg.append(svg("text", { x: a.x1 + 25, y: r2(y), "aria-hidden": "true" }, [text]));
    }
    return figure(t.heatmap + (s.n > H || s.d > W ? t.shrunk(fmt(s.n / H, 2), fmt(s.d / W, 2)) : ""), null, a.svg);
  }

  function render(s, ctx) {
    const { t, width: full } = ctx;
    const half = full >= 560 ? Math.floor((full - 16) / 2) : full; // the two small views side by side, or stacked
    const dashed = (c, points) => c.plot.append(svg("path", { class: "pe-live__mark", d: path(points) }));
    const h = s.lambda.length;

    const curves = chart(half, 220, {
      label: t.curvesLabel(s.columns, s.n),
      x: { lo: 0, hi: Math.max(1, s.n - 1), label: t.positionAxis },
      y: { lo: -1.1, hi: 1.1, label: t.value, ticks: [-1, -0.5, 0, 0.5, 1] },
    });
    dashed(curves, [[curves.sx(s.p), curves.y1], [curves.sx(s.p), curves.y0]]);
    s.curves.forEach((ys, k) => (s.n === 1 ? curves.marker(0, ys[0], `pe-live__dot pe-live__c${k}`)
      : curves.line(indexed(ys), `pe-live__c${k}`)));

    let [lo, hi] = [Math.min(...s.lambda, s.n), Math.max(...s.lambda, s.n)];
    if (hi / lo < 10) [lo, hi] = [lo / 2, hi * 2];
    const waves = chart(half, 220, {
      label: t.wavelengthsLabel(h, fmt(s.lambda[0]), fmt(s.lambda[h - 1])),
      x: { lo: 0, hi: Math.max(1, h - 1), label: t.pair, integer: true },
      y: { lo, hi, log: true, label: t.wavelength },
    });
    const yl = waves.sy(s.n);
    dashed(waves, [[waves.x0, yl], [waves.x1, yl]]);
    waves.plot.append(svg("text", { class: "pe-live__marktext", x: waves.x0 + 4, y: r2(yl - 3) }, ["max_len"]));
    if (h > 1) waves.line(indexed(s.lambda), "pe-live__c0");
    if (h <= 64) s.lambda.forEach((x, i) => waves.marker(i, x, "pe-live__dot pe-live__c0", 2.5));

    const [kLo, kHi, d2] = [-s.p, s.n - 1 - s.p, s.d / 2];
    const dots = chart(full, 220, {
      label: t.dotsLabel(s.p, kLo, kHi),
      x: kLo < kHi ? { lo: kLo, hi: kHi, label: t.offset } : { lo: kLo - 1, hi: kHi + 1, label: t.offset, ticks: [0] },
      y: { lo: -1.05 * d2, hi: 1.05 * d2, label: "PE[p]·PE[p+k]", ticks: [-d2, -d2 / 2, 0, d2 / 2, d2] },
    });
    dashed(dots, [[dots.x0, dots.sy(0)], [dots.x1, dots.sy(0)]]);
    if (s.n > 1) dots.line(indexed(s.dots, kLo), "pe-live__line--thin pe-live__c0");
    dots.marker(0, s.dots[s.p], "pe-live__ring pe-live__c1", 4);

    const pair = [figure(t.curves, s.columns.map((c, k) => [t.column(c), k]), curves.svg),
      figure(t.wavelengths, null, waves.svg)];
    ctx.views.replaceChildren(heatmap(s, ctx, full), live.element("div", { className: "pe-live__pair",
      style: `grid-template-columns: repeat(${half < full ? 2 : 1}, 1fr)` }, pair), figure(t.dots, null, dots.svg));
    const k = s.p + 1 < s.n ? 1 : s.p > 0 ? -1 : 0;
    return t.summary({ n: s.n, d: s.d, base: fmt(s.base, 6), h, p: s.p, lo: fmt(s.lambda[0]), hi: fmt(s.lambda[h - 1]),
      ratio: h > 1 ? fmt(s.lambda[1] / s.lambda[0], 5) : "",
      row: [...Array.from(s.table[s.p].slice(0, 6), (x) => x.toFixed(4).replace("-", "−")), ...s.d > 6 ? ["…"] : []]
        .join(", "),
      dot: k ? fmt(s.dots[s.p + k]) : null, sign: k > 0 ? "+" : "−",
      cos: k ? (s.dots[s.p + k] / d2).toFixed(3).replace("-", "−") : null });
  }

  live.register("table", {
    fields: [
      { key: "d_model", value: 128, even: true, max: 1024 },
      { key: "base", value: 10000, positive: true, real: true },
      { key: "max_len", value: 100, min: 1, max: 2048 },
      { key: "position", value: 0, min: 0, max: (v) => v.max_len - 1, over: (v) => ["below", v.max_len] },
      { key: "columns", type: "text", value: "0 10 50" },
    ],
    text: TEXT, compute, render,
  });
})();
