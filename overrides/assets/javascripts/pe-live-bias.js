// ALiBi and T5, live (relative-schemes; pe-live.js has the frame): two biases added to attention scores that depend
// on the offset alone, and their computations, as window.peDocs.alibiSlopes(nHeads) ≙ pe_docs.alibi_slopes and
// window.peDocs.t5RelativeBucket(relativePosition, bidirectional, numBuckets, maxDistance) ≙ t5_relative_bucket.
// ALiBi: the number of heads gives each head its slope, drawn with one head's bias matrix −m_h·(i − j). T5: the
// bucket of every offset for bidirectional, num_buckets and max_distance, with the exact buckets, the start of the
// last bucket and max_distance marked. The two parts are two explorers in one box, each with its own settings in
// the address (alibi.*, t5.*) and its own message for bad settings.
(function () {
  "use strict";

  const live = window.peDocs.live;
  const { argumentError, element, svg, chart, fmt, r2, figure } = live;

  // ---- the computations, as pe_docs (bias.py) -------------------------------------------------------------

  const largestPowerOfTwo = (n) => 2 ** Math.floor(Math.log2(n)); // at most n (log2 is exact at powers of two)

  // ALiBi's slopes (pe_docs.alibi_slopes): 2^(−8h/n) for n a power of two; otherwise those of the nearest smaller
  // power of two m, then every other slope of 2m heads.
  function alibiSlopes(n) {
    const powerOfTwo = (k) => Float64Array.from({ length: k }, (_, j) => Math.pow(2, (-8 * (j + 1)) / k));
    const m = largestPowerOfTwo(n);
    if (m === n) return powerOfTwo(n);
    const out = new Float64Array(n);
    out.set(powerOfTwo(m));
    const more = powerOfTwo(2 * m);
    for (let j = 0; j < n - m; j++) out[m + j] = more[2 * j];
    return out;
  }

  // T5's bucket of the offset j − i (pe_docs.t5_relative_bucket): a number, or an array of them. The fields check
  // num_buckets (>= 4) and max_distance (above the exact buckets of one direction); an odd num_buckets turned
  // bidirectional is refused here, as pe_docs refuses it.
  function t5RelativeBucket(relativePosition, bidirectional = true, numBuckets = 32, maxDistance = 128) {
    const many = Array.isArray(relativePosition) || ArrayBuffer.isView(relativePosition);
    const offsets = many ? Array.from(relativePosition) : [relativePosition];
    let n = numBuckets;
    if (bidirectional && n % 2) throw argumentError("evenBuckets", "num_buckets", n, undefined, { fix: n + 1 });
    if (bidirectional) n = Math.floor(n / 2);
    const exact = Math.floor(n / 2);
    const logMax = Math.log(maxDistance / exact);
    const out = offsets.map((rp) => {
      const offset = bidirectional && rp > 0 ? n : 0;
      const distance = bidirectional ? Math.abs(rp) : Math.max(-rp, 0);
      if (distance < exact) return offset + distance;
      const scaled = Math.log(distance / exact) / logMax;
      return offset + Math.min(exact + Math.floor(scaled * (n - exact)), n - 1);
    });
    return many ? out : out[0];
  }

  Object.assign(window.peDocs, { alibiSlopes, t5RelativeBucket });

  // ---- the figures --------------------------------------------------------------------------------------------

  const ALIBI_TEXT = {
    en: {
      heading: "ALiBi: a slope per head, a penalty proportional to the distance",
      n_heads: "heads n_heads",
      seq_len: "positions shown",
      head: "head h (from 1)",
      causal: "causal (keys after the query masked)",
      slopes: "Slope m_h of every head (log scale)",
      matrix: (h, m) => `Bias of head ${h} (slope ${m}): query i down, key j across`,
      headAxis: "head h",
      slopeAxis: "slope m_h",
      query: "query i",
      keyAxis: "key j",
      slopesLabel: (list) => `Slopes of the heads, from head 1: ${list}.`,
      matrixLabel: (h, n, far, v) => `Bias matrix of head ${h} over ${n} positions: 0 on the diagonal, ${v} at `
        + `distance ${far}.`,
      masked: "masked (−∞)",
      summary: (s) => `${s.n} heads. Slopes ${s.list}${s.power ? "" : ` (${s.n} is not a power of two: the slopes `
        + `of ${s.m} heads, then every other slope of ${2 * s.m})`}. Head ${s.h} adds −${s.slope} per position of `
        + `distance: ${s.far} at distance ${s.distance}.`,
    },
    zh: {
      heading: "ALiBi：每个头一个斜率，惩罚与距离成正比",
      n_heads: "头数 n_heads",
      seq_len: "显示的位置数",
      head: "第 h 个头（从 1 起）",
      causal: "因果（屏蔽查询之后的键）",
      slopes: "每个头的斜率 m_h（对数坐标）",
      matrix: (h, m) => `第 ${h} 个头的偏置（斜率 ${m}）：纵向是查询 i，横向是键 j`,
      headAxis: "第 h 个头",
      slopeAxis: "斜率 m_h",
      query: "查询 i",
      keyAxis: "键 j",
      slopesLabel: (list) => `各个头的斜率，从第 1 个头起：${list}。`,
      matrixLabel: (h, n, far, v) => `第 ${h} 个头在 ${n} 个位置上的偏置矩阵：对角线为 0，距离 ${far} 处为 ${v}。`,
      masked: "屏蔽（−∞）",
      summary: (s) => `${s.n} 个头，斜率 ${s.list}${s.power ? "" : `（${s.n} 不是 2 的幂：先取 ${s.m} 个头的斜率，`
        + `再隔一个取 ${2 * s.m} 个头的斜率）`}。第 ${s.h} 个头的偏置随距离每增加一个位置减少 ${s.slope}：`
        + `距离 ${s.distance} 处为 ${s.far}。`,
    },
  };

  const T5_TEXT = {
    en: {
      heading: "T5: offsets in buckets, exact near the query, logarithmic further out",
      bidirectional: "bidirectional (the encoder)",
      reach: "offsets shown (±)",
      buckets: "Bucket of each offset j − i (key minus query)",
      offsetAxis: "offset j − i",
      bucketAxis: "bucket",
      exactMark: "exact buckets",
      maxMark: "±max_distance",
      lastMark: "start of the last bucket",
      label: (lo, hi) => `T5's bucket of every offset from ${lo} to ${hi}; the marks are described below.`,
      summary: (s) => `${s.bidirectional
        ? `Bidirectional: ${s.half} buckets for keys at or before the query, ${s.half} `
        + "for keys after it. In each direction" : `Causal: all ${s.half} buckets look backwards; every key after the `
        + "query falls into bucket 0. Looking back"}, distances 0 to ${s.exact - 1} get a bucket each; from ${s.exact} `
        + `on, the buckets grow logarithmically, and from distance ${s.last} on every offset shares the last bucket `
        + `(max_distance = ${s.maxDistance}). ${s.used} of the ${s.total} buckets are used${s.unused.length
          ? ` (never: ${s.unused.join(", ")})` : ""}.`,
    },
    zh: {
      heading: "T5：按偏移分桶，靠近查询时精确，越远越按对数变宽",
      bidirectional: "双向（编码器）",
      num_buckets: "桶数 num_buckets",
      reach: "显示的偏移范围（±）",
      buckets: "每个偏移 j − i（键减查询）所在的桶",
      offsetAxis: "偏移 j − i",
      bucketAxis: "桶",
      exactMark: "精确桶",
      maxMark: "±max_distance",
      lastMark: "最后一个桶的起点",
      label: (lo, hi) => `T5 为偏移 ${lo} 到 ${hi} 分的桶；图中的标记见下文。`,
      summary: (s) => `${s.bidirectional ? `双向：查询及其之前的键用 ${s.half} 个桶，之后的键用 ${s.half} 个。每个方向上，`
        : `因果：全部 ${s.half} 个桶都朝后看；查询之后的键都落进第 0 个桶。往回看时，`}距离 0 到 ${s.exact - 1} `
        + `各占一个桶；从 ${s.exact} 起，桶按对数变宽；从距离 ${s.last} 起，所有偏移共用最后一个桶`
        + `（max_distance = ${s.maxDistance}）。${s.total} 个桶里用到了 ${s.used} 个${s.unused.length
          ? `（从未用到：${s.unused.join("、")}）` : ""}。`,
    },
  };

  // ---- ALiBi ------------------------------------------------------------------------------------------------

  function alibiCompute(v) {
    const { n_heads: n, seq_len: len, head: h, causal } = v;
    const m = largestPowerOfTwo(n);
    return { n, len, h, causal, slopes: alibiSlopes(n), m, power: m === n };
  }

  const powerOfTwo = (x) => (Math.abs(Math.log2(x) - Math.round(Math.log2(x))) < 1e-12
    ? live.power(2, Math.round(Math.log2(x))) : fmt(x, 3));

  function alibiRender(s, ctx) {
    const { t, width: full } = ctx;
    const width = full >= 520 ? Math.floor((full - 16) / 2) : full; // the two figures side by side, or stacked
    const exps = [];
    const [lo, hi] = [Math.log2(Math.min(...s.slopes)), Math.log2(Math.max(...s.slopes))];
    for (let e = Math.floor(lo + 1e-9); e <= Math.ceil(hi - 1e-9); e++) exps.push(e);
    const step = Math.ceil(exps.length / 5);
    const a = chart(width, 200, {
      label: t.slopesLabel(Array.from(s.slopes, (x) => fmt(x)).join(", ")),
      x: { lo: 0.5, hi: s.n + 0.5, label: t.headAxis, ticks: live.niceTicks(1, s.n, 6, true) },
      y: { lo: Math.pow(2, exps[0]) / 1.2, hi: Math.pow(2, exps[exps.length - 1]) * 1.2, log: true,
        label: t.slopeAxis, ticks: exps.filter((_, j) => j % step === 0).map((e) => Math.pow(2, e)),
        format: powerOfTwo },
    });
    s.slopes.forEach((x, j) => (j + 1 === s.h ? a.marker(j + 1, x, "pe-live__ring pe-live__c1", 4.5)
      : a.marker(j + 1, x, "pe-live__dot pe-live__c0", s.n > 32 ? 2 : 3)));

    // the bias matrix of head h: −m·(i − j) below the diagonal, −m·|i − j| above it (or masked)
    const slope = s.slopes[s.h - 1];
    const top = s.slopes[0] * (s.len - 1); // the largest magnitude of any head: the colour scale of every head
    const size = Math.min(width, 420);
    const [cell, height] = [(size - 40) / s.len, 34 + ((size - 40) / s.len) * s.len];
    const grid = svg("svg", { width: size, height, viewBox: `0 0 ${size} ${height}`, role: "img",
      "aria-label": t.matrixLabel(s.h, s.len, s.len - 1, fmt(-slope * (s.len - 1))) });
    const g = svg("g", { transform: "translate(34 30)" });
    for (let i = 0; i < s.len; i++) {
      for (let j = 0; j < s.len; j++) {
        const masked = s.causal && j > i;
        const value = -slope * Math.abs(i - j);
        g.append(svg("rect", { x: r2(j * cell), y: r2(i * cell), width: r2(cell - 1), height: r2(cell - 1),
          class: masked ? "pe-live__masked" : "pe-live__cell-fill",
          "fill-opacity": masked ? null : r2((0.75 * -value) / top + 0.02) }));
        if (cell >= 30) {
          g.append(svg("text", { x: r2((j + 0.5) * cell), y: r2((i + 0.5) * cell + 4), "text-anchor": "middle",
            class: "pe-live__celltext" }, [masked ? "−∞" : value === 0 ? "0" : fmt(value, 3)]));
        }
      }
    }
    for (const k of live.niceTicks(0, s.len - 1, 4, true)) {
      g.append(svg("text", { x: r2((k + 0.5) * cell), y: -5, "text-anchor": "middle" }, [String(k)]));
      g.append(svg("text", { x: -5, y: r2((k + 0.5) * cell + 4), "text-anchor": "end" }, [String(k)]));
    }
    grid.append(g, svg("text", { x: 34 + (s.len * cell) / 2, y: 9, "text-anchor": "middle",
      class: "pe-live__marktext" }, [t.keyAxis]), svg("text", { x: 0, y: 0,
      transform: `translate(9 ${30 + (s.len * cell) / 2}) rotate(-90)`, "text-anchor": "middle",
      class: "pe-live__marktext" }, [t.query]));

    ctx.views.replaceChildren(element("div", { className: "pe-live__pair",
      style: `grid-template-columns: ${width < full ? "1fr 1fr" : "1fr"}` },
    [figure(t.slopes, null, a.svg), figure(t.matrix(s.h, fmt(slope)), null, grid)]));
    const shown = Array.from(s.slopes.slice(0, 8), (x) => powerOfTwo(x));
    return t.summary({ n: s.n, m: s.m, power: s.power, h: s.h, slope: fmt(slope), distance: s.len - 1,
      far: fmt(-slope * (s.len - 1)), list: shown.join(", ") + (s.n > 8 ? ", …" : "") });
  }

  // ---- T5 ---------------------------------------------------------------------------------------------------

  function t5Compute(v) {
    const { bidirectional, num_buckets: numBuckets, max_distance: maxDistance, reach } = v;
    const bucket = t5RelativeBucket; // refuses an odd num_buckets when bidirectional (pe_docs' rule)
    const offsets = Array.from({ length: 2 * reach + 1 }, (_, j) => j - reach);
    const buckets = bucket(offsets, bidirectional, numBuckets, maxDistance);
    const half = bidirectional ? numBuckets / 2 : numBuckets;
    const exact = Math.floor(half / 2);
    // the bucket of every offset out to one past ±max_distance: the buckets used, and the first distance in the last
    // bucket looking back (offset −last; max_distance itself is in it)
    const far = bucket(Array.from({ length: 2 * maxDistance + 3 }, (_, j) => j - maxDistance - 1), bidirectional,
      numBuckets, maxDistance);
    const used = new Set(far);
    const unused = Array.from({ length: numBuckets }, (_, b) => b).filter((b) => !used.has(b));
    let last = exact;
    while (far[maxDistance + 1 - last] !== half - 1) last++;
    return { bidirectional, numBuckets, maxDistance, reach, offsets, buckets, half, exact, last, used: used.size,
      unused };
  }

  function t5Render(s, ctx) {
    const { t, width } = ctx;
    const c = chart(width, 220, {
      label: t.label(-s.reach, s.reach),
      x: { lo: -s.reach, hi: s.reach, label: t.offsetAxis },
      y: { lo: -0.5, hi: s.numBuckets - 0.5, label: t.bucketAxis, integer: true },
    });
    const inView = (x) => x >= -s.reach && x <= s.reach;
    const vline = (x, cls) => inView(x) && c.plot.append(svg("line", { class: cls, x1: r2(c.sx(x)),
      x2: r2(c.sx(x)), y1: c.y1, y2: c.y0 }));
    // exact buckets: a band; max_distance and the last bucket's start: dashed lines
    const left = Math.max(-s.reach, -(s.exact - 0.5));
    const right = s.bidirectional ? Math.min(s.reach, s.exact - 0.5) : 0.5;
    c.plot.append(svg("rect", { class: "pe-live__band", x: r2(c.sx(left)), y: c.y1,
      width: r2(c.sx(right) - c.sx(left)), height: c.y0 - c.y1 }));
    const sides = (x) => (s.bidirectional ? [-x, x] : [-x]);
    sides(s.maxDistance).forEach((x) => vline(x, "pe-live__mark"));
    sides(s.last).forEach((x) => vline(x, "pe-live__mark pe-live__mark--strong pe-live__c3"));
    const steps = s.offsets.flatMap((o, j) => [[o - 0.5, s.buckets[j]], [o + 0.5, s.buckets[j]]]);
    c.line(steps, "pe-live__line--thin pe-live__c0");
    ctx.views.replaceChildren(figure(t.buckets, [[t.exactMark, "grey", "pe-live__swatch--band"],
      [t.lastMark, 3, "pe-live__swatch--dashed"], [t.maxMark, "grey", "pe-live__swatch--dashed"]], c.svg));
    return t.summary({ ...s, total: s.numBuckets });
  }

  // ---- the box ----------------------------------------------------------------------------------------------

  const ALIBI = {
    fields: [
      { key: "n_heads", value: 8, min: 1, max: 128 },
      { key: "seq_len", value: 8, min: 2, max: 32 },
      { key: "head", value: 1, min: 1, max: (v) => v.n_heads, over: (v) => ["head", v.n_heads] },
      { key: "causal", type: "check", value: "1" },
    ],
    text: ALIBI_TEXT, compute: alibiCompute, render: alibiRender,
  };
  const T5 = {
    fields: [
      { key: "bidirectional", type: "check", value: "1" },
      { key: "num_buckets", value: 32, min: 4, max: 1024 },
      // more than the exact buckets of one direction (pe_docs' check)
      { key: "max_distance", value: 128, max: 100000,
        min: (v) => Math.floor((v.bidirectional ? Math.floor(v.num_buckets / 2) : v.num_buckets) / 2) + 1 },
      { key: "reach", value: 160, min: 1, max: 5000 },
    ],
    text: T5_TEXT, compute: t5Compute, render: t5Render,
  };

  function mountBox(root) {
    const parts = [["alibi", ALIBI], ["t5", T5]].map(([kind, spec]) => {
      const body = element("div", { id: `${root.id || "bias"}-${kind}` });
      Object.assign(body.dataset, root.dataset, { kind });
      return [kind, spec, body, element("section", { className: "pe-live__part" }, [
        element("p", { className: "pe-live__heading", textContent: spec.text[live.language()].heading }), body])];
    });
    root.replaceChildren(...parts.map((part) => part[3]));
    root.peLive = { parts: Object.fromEntries(parts.map(([kind, spec, body]) => [kind, live.mount(body, spec)])) };
    root.classList.add("pe-live--ready");
    root.dataset.state = "ok";
  }

  live.register("bias", { mount: mountBox });
})();
