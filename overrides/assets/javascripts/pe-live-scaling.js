// RoPE's context extension, live (relative-schemes; pe-live.js has the frame): a head width, base, trained length
// L, target length and method (none, position interpolation, NTK-aware, Dynamic NTK at the target length, YaRN,
// Llama 3) give each pair's frequency and the largest angle it reaches over the target length. The computations
// are here, as window.peDocs.ropeFrequencies(headDim, base, scaling, {maxPositionEmbeddings, seqLen}) ≙
// pe_docs.rope_frequencies (scaling: a model's rope_parameters) and ntkAwareFrequencies ≙ ntk_aware_frequencies. A pair whose wavelength exceeds L never
// completed a turn in training; if the target length turns it further than position L turns it on the trained
// ladder (relative-schemes' rule: the largest angle, as a position of the trained ladder, beyond L), it is marked.
(function () {
  "use strict";

  const live = window.peDocs.live;
  const { argumentError, checkReal, fmt, svg, r2, figure } = live;
  const inverseFrequencies = window.peDocs.inverseFrequencies;

  // ---- the computations, as pe_docs/rope_scaling.py (the same float64 operations in the same order)

  const map = (w, f) => Float64Array.from(w, f);

  // The frequencies of the "NTK-aware" base base · s^(d/(d−2)) (pe_docs.analysis.ntk_aware_frequencies). A head
  // of 2 has no such base; Dynamic NTK's effective factor (ropeFrequencies) may round below 1 (factor 3.3 at L = 3)
  // or overflow (factor 1e305), and so may the base (inverseFrequencies checks it): refused, as pe_docs refuses them.
  function ntkAwareFrequencies(d, factor, base = 10000) {
    if (d < 4) throw argumentError("ntk", "head_dim", d, 4, { fix: 4 });
    const s = checkReal("factor", factor, 1);
    return inverseFrequencies(d, base * Math.pow(s, d / (d - 2)));
  }

  // (low, high): pairs i ≤ low keep their frequency, i ≥ high are interpolated (pe_docs.analysis.yarn_boundaries);
  // unrounded but clamped to [0, d - 1] if `truncate` is false, as yarn_boundaries(truncate=False). The fields check
  // the betas (> 0, beta_slow <= beta_fast); a base of 1 or less is refused here, as pe_docs refuses it.
  function yarnBoundaries(d, length, base = 10000, fast = 32, slow = 1, truncate = true) {
    if (base <= 1) throw argumentError("yarnBase", "base", base, 1);
    const index = (rotations) => (d * Math.log(length / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
    const [low, high] = truncate ? [Math.floor(index(fast)), Math.ceil(index(slow))] : [index(fast), index(slow)];
    return [Math.max(low, 0), Math.min(high, d - 1)];
  }

  // Python's truth value of a setting (`params.get("mscale") and …`): None, 0, False and "" are false.
  const falsy = (v) => v === undefined || v === null || v === 0 || v === false || v === "";

  // RoPE's frequencies and attention scaling for a model's rope_parameters (pe_docs.rope_frequencies, for settings
  // it accepts; the fields have checked them): scaling is null or {rope_type: "default" | "linear" | "dynamic" |
  // "yarn" | "llama3", factor, …}, pe_docs' keys; for "dynamic", maxPositionEmbeddings is the trained length and
  // seqLen the current length (default: the trained length), as pe_docs' max_position_embeddings and seq_len.
  // Returns {invFreq: Float64Array(d / 2), attentionScaling}.
  function ropeFrequencies(d, b = 10000, scaling = null, { maxPositionEmbeddings = null, seqLen = null } = {}) {
    const params = scaling || {};
    const ropeType = params.rope_type || "default";
    const result = (invFreq, attentionScaling = 1) => ({ invFreq, attentionScaling });
    if (ropeType === "default") return result(inverseFrequencies(d, b));
    const factor = params.factor;
    // position interpolation: every frequency divided by the factor
    if (ropeType === "linear") return result(map(inverseFrequencies(d, b), (x) => x / factor));
    if (ropeType === "dynamic") {
      // Hugging Face's factor for seq_len tokens: factor · L' / L − (factor − 1), L' = max(seq_len, L)
      const trained = maxPositionEmbeddings;
      const effective = (factor * Math.max(seqLen ?? trained, trained)) / trained - (factor - 1);
      return result(ntkAwareFrequencies(d, effective, b));
    }
    const original = params.original_max_position_embeddings;
    if (ropeType === "llama3") {
      const [low, high] = [params.low_freq_factor, params.high_freq_factor];
      // pe_docs.analysis.llama3_frequencies' check, under its argument names (the fields check each factor > 0)
      if (high <= low) throw argumentError("aboveLow", "high_freq_factor", high, low);
      return result(map(inverseFrequencies(d, b), (x) => {
        const turns = original / ((2 * Math.PI) / x); // over the trained length, at the wavelength 2π / x
        const gamma = Math.min(Math.max((turns - low) / (high - low), 0), 1);
        return (1 - gamma) * (x / factor) + gamma * x;
      }));
    }
    // None is the default (a beta of 0 the fields refuse: transformers' `get("beta_fast") or 32` reads it as 32)
    const [betaFast, betaSlow] = [params.beta_fast ?? 32, params.beta_slow ?? 1];
    const truncate = params.truncate ?? true;
    // YaRN: each pair's frequency unchanged, divided by the factor, or a blend along the ramp from low to high
    const [low, high] = yarnBoundaries(d, original, b, betaFast, betaSlow, truncate);
    const span = high !== low ? high - low : 0.001;
    const w = map(inverseFrequencies(d, b), (x, i) => {
      const ramp = Math.min(Math.max((i - low) / span, 0), 1);
      return (1 - ramp) * x + ramp * (x / factor);
    });
    // the attention scaling: attention_factor if given, else DeepSeek's form if both mscales are set, else YaRN's
    const [m, mAll] = [params.mscale, params.mscale_all_dim];
    return result(w, params.attention_factor ?? (!falsy(m) && !falsy(mAll)
      ? (0.1 * m * Math.log(factor) + 1) / (0.1 * mAll * Math.log(factor) + 1) : 0.1 * Math.log(factor) + 1));
  }

  Object.assign(window.peDocs, { ropeFrequencies, ntkAwareFrequencies, yarnBoundaries });

  // ---- the figure ---------------------------------------------------------------------------------------------
  const METHODS = ["none", "linear", "ntk", "dynamic", "yarn", "llama3"];
  const TAU = 2 * Math.PI;

  const TEXT = {
    en: {
      head_dim: "head width head_dim (even)",
      base: "base (rope_theta)",
      original: "trained length L",
      target: "target length",
      "method.none": "none (the trained ladder)",
      "method.linear": "position interpolation (linear)",
      "method.ntk": "NTK-aware base",
      "method.dynamic": "Dynamic NTK at the target length",
      "method.yarn": "YaRN",
      "method.llama3": "Llama 3 (llama3)",
      factor: "factor s",
      truncate: "truncate (whole pair indices)",
      names: { original: "L", target: "the target length" },
      frequencies: "Frequency w_i of each pair (log scale)",
      angles: "Largest angle of each pair, in turns (log scale)",
      trained: "trained",
      scaled: "after the method",
      target_: "at the target length",
      beyond: "beyond position L of the trained ladder",
      oneTurn: "one turn",
      slowBand: "wavelength longer than L",
      pairAxis: "pair i",
      frequencyAxis: "w_i (rad per position)",
      turnsAxis: "turns",
      frequenciesLabel: (h, a, b) => `Frequencies of the ${h} pairs: from ${a} to ${b} after the method.`,
      anglesLabel: (n, list) => `Largest angle of each pair over the trained and the target length; ${n} pairs go `
        + `beyond position L of the trained ladder${n ? `: ${list}` : ""}.`,
      summary: (s) => `${s.slow} of ${s.h} pairs never complete a turn in the trained ${s.L} positions`
        + `${s.slow ? ` (pairs ${s.slowList})` : ""}. ${s.name}, reading ${s.T} positions: `
        + (s.beyond ? `${s.beyond} pairs reach angles that, on the trained ladder, belong to positions beyond L `
          + `(pairs ${s.beyondList}); pair ${s.worst} as far as position ${s.worstAt}. ` : "no pair reaches an angle "
          + "that, on the trained ladder, belongs to a position beyond L. ")
        + `The method multiplies pair 0's frequency by ${s.first} and pair ${s.h - 1}'s by ${s.last}. `
        + `Attention scaling `
        + `${s.scaling}${s.scaling !== "1" ? ` (scores × ${s.squared})` : ""}.`,
    },
    zh: {
      head_dim: "头宽度 head_dim（偶数）",
      base: "底数 base（rope_theta）",
      original: "训练长度 L",
      target: "目标长度",
      method: "方法",
      "method.none": "不处理（训练时的频率）",
      "method.linear": "位置插值（linear）",
      "method.ntk": "NTK-aware 换底数",
      "method.dynamic": "Dynamic NTK，取目标长度",
      "method.yarn": "YaRN",
      "method.llama3": "Llama 3（llama3）",
      factor: "倍数 factor s",
      truncate: "truncate（取整的对序号）",
      names: { original: "训练长度 L", target: "目标长度" },
      frequencies: "每一对的频率 w_i（对数坐标）",
      angles: "每一对达到的最大角度，以圈计（对数坐标）",
      trained: "训练时",
      scaled: "处理之后",
      target_: "读到目标长度时",
      beyond: "超出原阶梯上位置 L 的角度",
      oneTurn: "一圈",
      slowBand: "波长比 L 长",
      pairAxis: "第 i 对",
      frequencyAxis: "w_i（弧度/位置）",
      turnsAxis: "圈数",
      frequenciesLabel: (h, a, b) => `${h} 个对的频率：处理之后从 ${a} 到 ${b}。`,
      anglesLabel: (n, list) => `每一对在训练长度和目标长度上达到的最大角度；${n} 个对超出原阶梯上位置 L 的角度`
        + `${n ? `：${list}` : ""}。`,
      summary: (s) => `${s.h} 个对里有 ${s.slow} 个在训练的 ${s.L} 个位置内转不满一圈`
        + `${s.slow ? `（第 ${s.slowList} 对）` : ""}。${s.name}，读 ${s.T} 个位置：`
        + (s.beyond ? `${s.beyond} 个对会转到这样的角度：在原阶梯上，只有 L 之后的位置才转得到（第 ${s.beyondList} 对）；`
          + `第 ${s.worst} 对一直转到原阶梯上第 ${s.worstAt} 个位置的角度。` : "没有哪一对转到原阶梯上 L 之后的位置才有的角度。")
        + `第 0 对的频率乘以 ${s.first}，第 ${s.h - 1} 对乘以 ${s.last}。注意力缩放系数 ${s.scaling}`
        + `${s.scaling !== "1" ? `（分数乘以 ${s.squared}）` : ""}。`,
    },
  };

  // The method's frequencies and attention scaling: a transformers rope_parameters dictionary for ropeFrequencies
  // (its keys beyond factor and the trained length: fields of the same names), except the static NTK-aware base,
  // which has no rope_type of its own.
  const KEYS = { yarn: ["beta_fast", "beta_slow", "truncate"], llama3: ["low_freq_factor", "high_freq_factor"] };
  function frequencies(method, d, base, L, T, v) {
    if (method === "none") return ropeFrequencies(d, base, null);
    if (method === "ntk") return { invFreq: ntkAwareFrequencies(d, v.factor, base), attentionScaling: 1 };
    const scaling = { rope_type: method, factor: v.factor };
    if (method === "dynamic") return ropeFrequencies(d, base, scaling, { maxPositionEmbeddings: L, seqLen: T });
    if (method !== "linear") scaling.original_max_position_embeddings = L;
    for (const key of KEYS[method] || []) scaling[key] = v[key];
    return ropeFrequencies(d, base, scaling);
  }

  function compute(v, t) {
    const { head_dim: d, base, original: L, target: T, method } = v;
    const result = frequencies(method, d, base, L, T, v);
    const w = inverseFrequencies(d, base);
    const scaled = result.invFreq;
    const trainedTurns = Array.from(w, (x) => ((L - 1) * x) / TAU);
    const targetTurns = Array.from(scaled, (x) => ((T - 1) * x) / TAU);
    const farthest = Array.from(w, (x, i) => ((T - 1) * scaled[i]) / x); // the largest angle, as a trained position
    const slow = [...w.keys()].filter((i) => (L * w[i]) / TAU < 1);
    const beyond = slow.filter((i) => farthest[i] > L); // beyond position L of the trained ladder (relative-schemes)
    const worst = beyond.reduce((a, i) => (a < 0 || farthest[i] > farthest[a] ? i : a), -1);
    return { d, base, L, T, method, name: t[`method.${method}`], w, scaled, scaling: result.attentionScaling,
      trainedTurns, targetTurns, slow, beyond, farthest, worst };
  }

  function logRange(values) {
    let [lo, hi] = [Math.min(...values.filter((x) => x > 0)), Math.max(...values)];
    if (!(hi > lo)) [lo, hi] = [lo / 2 || 1e-3, hi * 2 || 1];
    return [lo / 1.6, hi * 1.6];
  }

  function render(s, ctx) {
    const { t, width } = ctx;
    const { chart, ranges, indexed } = live;
    const h = s.d / 2;
    const pairTicks = live.niceTicks(0, h - 1, Math.max(2, Math.floor(width / 80)), true);
    const xs = { lo: -0.5, hi: h - 0.5, label: t.pairAxis, ticks: pairTicks };
    const band = (c) => s.slow.length && c.plot.append(svg("rect", { class: "pe-live__band",
      x: r2(c.sx(s.slow[0] - 0.5)), y: c.y1, width: r2(c.sx(h - 0.5) - c.sx(s.slow[0] - 0.5)), height: c.y0 - c.y1 }));

    const [flo, fhi] = logRange([...s.w, ...s.scaled]);
    const a = chart(width, 200, {
      label: t.frequenciesLabel(h, fmt(s.scaled[0]), fmt(s.scaled[h - 1])),
      x: xs, y: { lo: flo, hi: fhi, log: true, label: t.frequencyAxis },
    });
    band(a);
    a.line(indexed(s.w), "pe-live__line--dashed pe-live__line--thin pe-live__cgrey");
    a.line(indexed(s.scaled), "pe-live__c0");

    const [turnsLo, turnsHi] = logRange([...s.trainedTurns, ...s.targetTurns, 1]);
    const b = chart(width, 220, {
      label: t.anglesLabel(s.beyond.length, ranges(s.beyond)),
      x: xs, y: { lo: turnsLo, hi: turnsHi, log: true, label: t.turnsAxis },
    });
    band(b);
    b.plot.append(svg("line", { class: "pe-live__mark", x1: b.x0, x2: b.x1, y1: r2(b.sy(1)), y2: r2(b.sy(1)) }));
    b.plot.append(svg("text", { class: "pe-live__marktext", x: b.x0 + 4, y: r2(b.sy(1)) - 3 }, [t.oneTurn]));
    b.line(indexed(s.trainedTurns), "pe-live__line--dashed pe-live__line--thin pe-live__cgrey");
    b.line(indexed(s.targetTurns), "pe-live__c0");
    for (const i of s.beyond) b.marker(i, s.targetTurns[i], "pe-live__dot pe-live__c3", h > 64 ? 2.2 : 3);
    const trained = [t.trained, "grey", "pe-live__swatch--dashed"];
    const slowBand = [t.slowBand, "grey", "pe-live__swatch--band"];
    ctx.views.replaceChildren(figure(t.frequencies, [trained, [t.scaled, 0], slowBand], a.svg),
      figure(t.angles, [trained, [t.target_, 0], [t.beyond, 3, "pe-live__swatch--dot"], slowBand], b.svg));
    return t.summary({ h, L: fmt(s.L, 12), T: fmt(s.T, 12), name: s.name, slow: s.slow.length,
      slowList: ranges(s.slow), beyond: s.beyond.length, beyondList: ranges(s.beyond), worst: s.worst,
      worstAt: s.worst >= 0 ? fmt(Math.round(s.farthest[s.worst]), 12) : "",
      first: fmt(s.scaled[0] / s.w[0]), last: fmt(s.scaled[h - 1] / s.w[h - 1]),
      scaling: fmt(s.scaling), squared: fmt(s.scaling * s.scaling) });
  }

  const when = (...methods) => (v) => methods.includes(v.method);
  live.register("scaling", {
    fields: [
      { key: "head_dim", value: 128, even: true, max: 1024 },
      { key: "base", value: 10000, real: true, positive: true },
      { key: "original", value: 4096, min: 1, max: 100000000 },
      { key: "target", value: 32768, min: 1, max: 100000000 },
      { key: "method", type: "select", options: METHODS, value: "yarn" },
      { key: "factor", value: 8, real: true, min: 1, when: when("linear", "ntk", "dynamic", "yarn", "llama3") },
      { key: "beta_fast", value: 32, real: true, min: 0, open: true, when: when("yarn") },
      { key: "beta_slow", value: 1, real: true, min: 0, open: true, when: when("yarn"), max: (v) => v.beta_fast,
        over: (v) => ["belowFast", v.beta_fast] },
      { key: "truncate", type: "check", value: "1", when: when("yarn") },
      { key: "low_freq_factor", value: 1, real: true, min: 0, open: true, when: when("llama3") },
      { key: "high_freq_factor", value: 4, real: true, min: 0, open: true, when: when("llama3") },
    ],
    text: TEXT, compute, render,
  });
})();
