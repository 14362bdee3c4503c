// RoPE, live (relative; pe-live.js has the frame): head width, base, pairing, a query position m and a key position
// n. It draws four of the pairs after RoPE has turned them (query by m·w_i, key by n·w_i, counter-clockwise with
// the pair's first feature across, as the site draws every pair), the angle of every pair, and the score q·k as a
// function of the offset n − m.
// "Shift both" adds the same number to m and n: every pair turns, the score does not (it is checked at every shift
// from 0 to 1000). The rotation is peDocs.ropeRotate (≙ pe_docs.analysis.rope_rotate, float64).
(function () {
  "use strict";

  const live = window.peDocs.live;
  const { element, svg, r2, fmt, chart, figure, dot } = live;
  const SHIFTS = 1000; // the score is compared at shifts 0 … SHIFTS

  // RoPE on one query or key vector x (length d, even) at an integer position (pe_docs.analysis.rope_rotate, float64):
  // pair (a, b) -> (a cos − b sin, a sin + b cos) of the angle position · w_i; pair i is (x[2i], x[2i+1])
  // ("interleaved") or (x[i], x[i + d/2]) ("half").
  function ropeRotate(x, position, base = 10000, pairing = "half") {
    return rotate(window.peDocs.inverseFrequencies(x.length, base), x, position, pairing);
  }

  // ropeRotate with the frequencies w given (the figure turns one vector to many positions).
  function rotate(w, x, p, pairing) {
    const out = new Float64Array(x.length);
    w.forEach((wi, i) => {
      const [c, s] = [Math.cos(p * wi), Math.sin(p * wi)];
      const [ia, ib] = features(i, x.length, pairing);
      out[ia] = x[ia] * c - x[ib] * s;
      out[ib] = x[ia] * s + x[ib] * c;
    });
    return out;
  }

  // Deterministic vectors: "ones", or normal samples from a fixed seed (mulberry32 + Box–Muller).
  function vectors(kind, d) {
    if (kind === "ones") return [new Float64Array(d).fill(1), new Float64Array(d).fill(1)];
    let a = 20240917;
    const uniform = () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
    return [Float64Array.from({ length: d }, normal), Float64Array.from({ length: d }, normal)];
  }

  const TEXT = {
    en: {
      head_dim: "head width head_dim (even)",
      "pairing.interleaved": "interleaved",
      "pairing.half": "halves",
      vectors: "query and key",
      "vectors.random": "random",
      "vectors.ones": "ones (q = k)",
      m: "query position m",
      n: "key position n",
      shift: "shift both by",
      pairs: "Four pairs after RoPE: query (blue) turned by m·wᵢ, key (orange) by n·wᵢ",
      angles: "How far RoPE turns each pair (degrees, counter-clockwise, as RoPE code turns them)",
      scores: "Score q·k after RoPE against the offset n − m",
      query: "query",
      key: "key",
      noRope: "without RoPE",
      pairTitle: (i, a, b) => `pair ${i}: features ${a}, ${b}`,
      between: (x) => `key − query: ${x}°`,
      pairAxis: "pair i",
      angleAxis: "angle (°)",
      offsetAxis: "offset n − m",
      scoreAxis: "score",
      pairLabel: (i, a, b, x) => `Pair ${i} (features ${a} and ${b}): the rotated query and key, ${x} degrees apart.`,
      anglesLabel: (h, m, n) => `Angles of the ${h} pairs of the query at ${m} and the key at ${n}, in degrees.`,
      scoresLabel: (lo, hi, k, s) => `Score against the offset from ${lo} to ${hi}; at the offset ${k} it is ${s}.`,
      summary: (s) => `Query at m = ${s.m}, key at n = ${s.n} (offset n − m = ${s.k}). `
        + `Score q·k after RoPE: ${s.score}; `
        + `without RoPE: ${s.plain}. Shifting both positions by 0, 1, …, ${SHIFTS} turns every pair, but the score `
        + `stays ${s.score} (largest change ${s.change}).`,
    },
    zh: {
      head_dim: "头宽度 head_dim（偶数）",
      base: "底数 base",
      pairing: "配对方式",
      "pairing.interleaved": "相邻配对",
      "pairing.half": "前后两半配对",
      vectors: "查询和键",
      "vectors.random": "随机",
      "vectors.ones": "全为 1（q = k）",
      m: "查询位置 m",
      n: "键位置 n",
      shift: "两个位置同时移动",
      pairs: "RoPE 转动后的其中四对：查询（蓝）转过 m·wᵢ，键（橙）转过 n·wᵢ",
      angles: "RoPE 把每一对转过的角度（度，逆时针，与 RoPE 代码的转向相同）",
      scores: "RoPE 之后的分数 q·k 随偏移 n − m 的变化",
      query: "查询",
      key: "键",
      noRope: "不加 RoPE",
      pairTitle: (i, a, b) => `第 ${i} 对：分量 ${a}、${b}`,
      between: (x) => `键 − 查询：${x}°`,
      pairAxis: "第 i 对",
      angleAxis: "角度（°）",
      offsetAxis: "偏移 n − m",
      scoreAxis: "分数",
      pairLabel: (i, a, b, x) => `第 ${i} 对（分量 ${a} 和 ${b}）：转动后的查询和键，相差 ${x} 度。`,
      anglesLabel: (h, m, n) => `位置 ${m} 的查询和位置 ${n} 的键在全部 ${h} 对上转过的角度（度）。`,
      scoresLabel: (lo, hi, k, s) => `分数随偏移的变化，偏移从 ${lo} 到 ${hi}；偏移为 ${k} 时分数是 ${s}。`,
      summary: (s) => `查询在 m = ${s.m}，键在 n = ${s.n}（偏移 n − m = ${s.k}）。RoPE 之后的分数 q·k 为 ${s.score}；`
        + `不加 RoPE 为 ${s.plain}。把两个位置同时移动 0、1、…、${SHIFTS}，每一对都在转，分数却一直是 ${s.score}`
        + `（最大变化 ${s.change}）。`,
    },
  };

  // The indices of pair i's two features.
  const features = (i, d, pairing) => (pairing === "interleaved" ? [2 * i, 2 * i + 1] : [i, i + d / 2]);

  let scores = null; // the scores at the shifts 0 … SHIFTS, for one setting of everything else

  function compute(v) {
    const { head_dim: d, base, pairing, m: m0, n: n0, shift } = v;
    const [q, k] = vectors(v.vectors, d);
    const [m, n] = [m0 + shift, n0 + shift];
    const qr = ropeRotate(q, m, base, pairing);
    const kr = ropeRotate(k, n, base, pairing);
    const w = window.peDocs.inverseFrequencies(d, base);
    const turn = (x, p) => rotate(w, x, p, pairing); // the same operations, w computed once
    const score = dot(qr, kr);
    // the score at every shift 0 … SHIFTS of both positions (kept while only the shift moves)
    const key = [d, base, pairing, v.vectors, m0, n0].join(" ");
    if (!scores || scores.key !== key) {
      const values = Float64Array.from({ length: SHIFTS + 1 }, (_, s) => dot(turn(q, m0 + s), turn(k, n0 + s)));
      scores = { key, values };
    }
    const change = Math.max(...Array.from(scores.values, (x) => Math.abs(x - score)));
    // the score against the offset, the query at m
    const reach = Math.min(1024, Math.max(48, 2 * Math.abs(n - m) + 8));
    const offsets = Array.from({ length: 2 * reach + 1 }, (_, j) => j - reach);
    const curve = offsets.map((o) => dot(qr, turn(k, m + o)));
    return { d, base, pairing, m0, n0, shift, m, n, q, k, qr, kr, score, plain: dot(q, k), change, w,
      offsets, curve, qAngles: live.degrees(m, w), kAngles: live.degrees(n, w) };
  }

  function pairView(s, i, size, t) {
    const [a, b] = features(i, s.d, s.pairing);
    const [c, R] = [size / 2, size / 2 - 8];
    const norm = Math.max(Math.hypot(s.qr[a], s.qr[b]), Math.hypot(s.kr[a], s.kr[b]), 1e-300);
    const point = (x, y) => [c + (R * x) / norm, c - (R * y) / norm];
    const [qa, ka] = [Math.atan2(s.qr[b], s.qr[a]), Math.atan2(s.kr[b], s.kr[a])];
    let between = ((ka - qa) * 180) / Math.PI;
    between = ((between % 360) + 540) % 360 - 180; // in [−180, 180)
    const root = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img",
      "aria-label": t.pairLabel(i, a, b, between.toFixed(1)) });
    root.append(svg("circle", { cx: c, cy: c, r: R, class: "pe-live__dial" }));
    root.append(svg("line", { x1: c - R, x2: c + R, y1: c, y2: c, class: "pe-live__tick" }));
    root.append(svg("line", { x1: c, x2: c, y1: c - R, y2: c + R, class: "pe-live__tick" }));
    // the arc from the query to the key, counter-clockwise when positive
    const rr = R * 0.3;
    if (Math.abs(between) > 0.2) {
      const [sx, sy] = [c + rr * Math.cos(qa), c - rr * Math.sin(qa)];
      const [ex, ey] = [c + rr * Math.cos(ka), c - rr * Math.sin(ka)];
      root.append(svg("path", { class: "pe-live__arc pe-live__cgrey",
        d: `M${r2(sx)} ${r2(sy)}A${r2(rr)} ${r2(rr)} 0 0 ${between > 0 ? 0 : 1} ${r2(ex)} ${r2(ey)}` }));
    }
    for (const [vec, colour] of [[s.kr, 1], [s.qr, 0]]) live.hand(root, c, point(vec[a], vec[b]), colour, 2.2);
    return live.cell(root, [t.pairTitle(i, a, b), element("br"), t.between(between.toFixed(1))]);
  }

  function render(s, ctx) {
    const { t, width } = ctx;
    const h = s.d / 2;
    const pairs = [...new Set([0, 1, Math.floor(h / 2), h - 1].filter((i) => i < h))]; // fewer for small heads
    const columns = width >= 520 ? pairs.length : 2;
    const size = Math.min(150, Math.floor((width - 12 * (columns - 1)) / columns));
    const faces = element("div", { className: "pe-live__faces" }, pairs.map((i) => pairView(s, i, size, t)));

    const a = chart(width, 190, {
      label: t.anglesLabel(h, s.m, s.n),
      x: { lo: -0.5, hi: h - 0.5, label: t.pairAxis, integer: true, ticks: live.niceTicks(0, h - 1, 6, true) },
      y: { lo: 0, hi: 360, label: t.angleAxis, ticks: [0, 90, 180, 270, 360] },
    });
    for (const [angles, colour] of [[s.kAngles, 1], [s.qAngles, 0]]) {
      a.plot.append(svg("g", { class: `pe-live__c${colour}` }, angles.map((x, i) => svg("circle", {
        class: "pe-live__dot", cx: r2(a.sx(i)), cy: r2(a.sy(x)), r: h > 64 ? 1.6 : 2.6 }))));
    }

    const [lo, hi] = [Math.min(...s.curve, s.plain), Math.max(...s.curve, s.plain)];
    const pad = (hi - lo) * 0.06 || 1;
    const b = chart(width, 210, {
      label: t.scoresLabel(s.offsets[0], s.offsets[s.offsets.length - 1], s.n - s.m, fmt(s.score)),
      x: { lo: s.offsets[0], hi: s.offsets[s.offsets.length - 1], label: t.offsetAxis },
      y: { lo: lo - pad, hi: hi + pad, label: t.scoreAxis },
    });
    const ends = [s.offsets[0], s.offsets[s.offsets.length - 1]];
    b.line(ends.map((o) => [o, s.plain]), "pe-live__line--dashed pe-live__line--thin pe-live__cgrey");
    b.line(s.offsets.map((o, j) => [o, s.curve[j]]), "pe-live__line--thin pe-live__c0");
    b.marker(s.n - s.m, s.score, "pe-live__ring pe-live__c1", 4.5);

    ctx.views.replaceChildren(
      figure(t.pairs, null, faces),
      figure(t.angles, [[t.query, 0, "pe-live__swatch--dot"], [t.key, 1, "pe-live__swatch--dot"]], a.svg),
      figure(t.scores, [["q·k", 0], [t.noRope, "grey", "pe-live__swatch--dashed"]], b.svg),
    );
    return t.summary({ m: s.m, n: s.n, k: s.n - s.m, score: fmt(s.score, 6), plain: fmt(s.plain, 6),
      change: fmt(s.change, 2) });
  }

  live.register("rope", {
    fields: [
      { key: "head_dim", value: 16, even: true, max: 512 },
      { key: "base", value: 10000, real: true, positive: true },
      { key: "pairing", type: "select", options: ["interleaved", "half"], value: "interleaved" },
      { key: "vectors", type: "select", options: ["random", "ones"], value: "random" },
      { key: "m", value: 3, min: 0, max: 1000000, slider: { min: 0, max: 100 } },
      { key: "n", value: 8, min: 0, max: 1000000, slider: { min: 0, max: 100 } },
      { key: "shift", value: 0, min: 0, max: 1000000, slider: { min: 0, max: 1000 } },
    ],
    text: TEXT, compute, render,
  });
  Object.assign(window.peDocs, { ropeRotate, ropeVectors: vectors });
})();
