// Start here's clock hands, live (pe-live.js has the frame): a position p (slider, field, play button) turns the
// hands of the figure; a second set of hands shows position p + k, and the turn of each hand from p to p + k,
// k·w_i, stays the same whatever p is. Hand i points at (x, y) = (sin θ, cos θ), θ = p·w_i measured clockwise from
// twelve o'clock, w_i = base^(−2i/d) (pe_docs.plotting.plot_clock_hands draws the still figure the same way).
(function () {
  "use strict";

  const live = window.peDocs.live;
  const { element, svg, r2 } = live;
  const DEG = 180 / Math.PI;

  // Angle of every hand at position p, in degrees in [0, 360): torch.rad2deg(torch.remainder(p * w, 2π)).
  const clockAngles = (p, dModel = 8, base = 10000) => live.degrees(p, window.peDocs.inverseFrequencies(dModel, base));
  window.peDocs.clockAngles = clockAngles;

  const TEXT = {
    en: {
      position: "position p",
      offset: "offset k",
      rate: "speed (positions a second)",
      play: "Play",
      pause: "Pause",
      all: (p) => `position ${p}`,
      hand: (i) => `hand ${i}`,
      speed: (w) => `w = ${w} rad per position`,
      turnLabel: (x) => `turn ${x}°`,
      headers: ["hand", "w_i", "at p", "at p + k", "turn"],
      caption: (p, q) => `Where each hand points at p = ${p} and at p + k = ${q}, and how far it turns from one to `
        + "the other, in degrees clockwise from twelve o'clock (w_i in radians per position).",
      note: "Move p, or press Play: the two angles change, the turn in the last column does not. It is k·w_i "
        + "(less whole turns) for every p — one fixed rotation per hand.",
      faceLabel: (p, q, angles) => `Clock face: the hands at position ${p} (solid) and at ${q} (dashed), pointing at `
        + `${angles.join(", ")} degrees.`,
      handLabel: (i, a, b, turn) => `Hand ${i}: ${a}° at p, ${b}° at p + k, turned by ${turn}°.`,
      summary: (s) => `p = ${s.p}, p + k = ${s.q}. Turn of each hand from p to p + k: ${s.turns.join(", ")} `
        + `(degrees, hands 0 to ${s.h - 1}) — k·w_i, the same at every p.`,
    },
    zh: {
      position: "位置 p",
      offset: "偏移 k",
      rate: "播放速度（每秒几个位置）",
      play: "播放",
      pause: "暂停",
      all: (p) => `位置 ${p}`,
      hand: (i) => `第 ${i} 根指针`,
      speed: (w) => `w = ${w} 弧度/位置`,
      turnLabel: (x) => `转过 ${x}°`,
      headers: ["指针", "w_i", "p 处", "p + k 处", "转过"],
      caption: (p, q) => `每根指针在 p = ${p} 和 p + k = ${q} 处的指向，以及从前者到后者转过的角度，单位为度，`
        + "从十二点钟方向顺时针量（w_i 的单位是弧度/位置）。",
      note: "拖动 p，或者点“播放”：两个角度都在变，最后一列转过的角度却不变。对每个 p，它都是 k·w_i（不计整圈）——"
        + "每根指针转的是同一个固定角度。",
      faceLabel: (p, q, angles) => `钟面：位置 ${p}（实线）和 ${q}（虚线）处的指针，指向 ${angles.join("、")} 度。`,
      handLabel: (i, a, b, turn) => `第 ${i} 根指针：p 处 ${a}°，p + k 处 ${b}°，转过 ${turn}°。`,
      summary: (s) => `p = ${s.p}，p + k = ${s.q}。从 p 到 p + k，第 0 到第 ${s.h - 1} 根指针分别转过 `
        + `${s.turns.join("、")} 度，即 k·w_i，对每个 p 都一样。`,
    },
  };

  const deg = (x) => x.toFixed(1);

  // A label for w_i: 1, 1/10, 1/100 … when it is one (the still figure's legend), else 4 digits.
  function speedLabel(w) {
    const inverse = 1 / w;
    if (w < 1 && Math.abs(inverse - Math.round(inverse)) < 1e-9 * inverse) return `1/${Math.round(inverse)}`;
    return live.fmt(w);
  }

  // The hands at p and p + k, of the div's data-d-model and data-base (those of the still figure).
  function compute(v, t, root) {
    const [p, k, d] = [v.position, v.offset, Number(root.dataset.dModel || 8)];
    const w = Array.from(window.peDocs.inverseFrequencies(d, Number(root.dataset.base || 10000)));
    // turns: k·w_i mod 2π, the turn from p to p + k, whatever p is
    return { p, k, q: p + k, w, at: live.degrees(p, w), next: live.degrees(p + k, w), turns: live.degrees(k, w),
      rate: Number(v.rate) };
  }

  // A point on the face at angle θ (degrees clockwise from twelve o'clock) and radius ρ; y grows downwards.
  const tip = (cx, cy, rho, theta) => [cx + rho * Math.sin(theta / DEG), cy - rho * Math.cos(theta / DEG)];

  function face(size, hands, label, arc) {
    const [c, R] = [size / 2, size / 2 - 6];
    const root = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img",
      "aria-label": label, class: "pe-live__face" });
    root.append(svg("circle", { cx: c, cy: c, r: R, class: "pe-live__dial" }));
    for (let h = 0; h < 12; h++) {
      const [ax, ay] = tip(c, c, R, h * 30);
      const [bx, by] = tip(c, c, R - (h % 3 ? 3 : 6), h * 30);
      root.append(svg("line", { x1: r2(ax), y1: r2(ay), x2: r2(bx), y2: r2(by), class: "pe-live__tick" }));
    }
    for (const { at, next, turn, length, colour, width } of hands) {
      const rr = R * 0.42;
      if (arc && turn > 0.05 && turn < 359.95) { // clockwise on the screen: sweep flag 1
        const [sx, sy] = tip(c, c, rr, at);
        const [ex, ey] = tip(c, c, rr, at + turn);
        root.append(svg("path", { class: `pe-live__arc pe-live__c${colour}`,
          d: `M${r2(sx)} ${r2(sy)}A${rr} ${rr} 0 ${turn > 180 ? 1 : 0} 1 ${r2(ex)} ${r2(ey)}` }));
      }
      live.hand(root, c, tip(c, c, R * length, next), colour, undefined, true);
      live.hand(root, c, tip(c, c, R * length, at), colour, width);
    }
    root.append(svg("circle", { cx: c, cy: c, r: 2.5, class: "pe-live__hub" }));
    return root;
  }

  function render(s, ctx) {
    const { t, width } = ctx;
    const h = s.w.length;
    const columns = width >= 560 ? h + 1 : 3;
    const size = Math.min(170, Math.floor((width - 12 * (columns - 1)) / columns));
    const all = Array.from({ length: h }, (_, i) => ({ at: s.at[i], next: s.next[i], turn: s.turns[i],
      length: 1 - 0.15 * i, colour: 1 + i, width: 2.6 - 0.3 * i }));
    const cells = [live.cell(face(size, all, t.faceLabel(s.p, s.q, s.at.map(deg)), false), [t.all(s.p)])];
    for (let i = 0; i < h; i++) {
      const label = t.handLabel(i, deg(s.at[i]), deg(s.next[i]), deg(s.turns[i]));
      cells.push(live.cell(face(size, [{ ...all[i], length: 0.92, width: 2.4 }], label, true),
        [t.hand(i), element("br"), t.turnLabel(deg(s.turns[i]))]));
    }
    const faces = element("div", { className: "pe-live__faces" }, cells);
    const rows = s.w.map((w, i) => element("tr", {}, [
      element("th", { scope: "row" }, [
        element("span", { className: `pe-live__swatch pe-live__c${1 + i}` }), String(i)]),
      element("td", { textContent: speedLabel(w) }),
      element("td", { textContent: `${deg(s.at[i])}°` }),
      element("td", { textContent: `${deg(s.next[i])}°` }),
      element("td", { className: "pe-live__fixed", textContent: `${deg(s.turns[i])}°` }),
    ]));
    const table = element("table", { className: "pe-live__table" }, [
      element("caption", { textContent: t.caption(s.p, s.q) }),
      element("thead", {}, [element("tr", {}, t.headers.map((x) => element("th", { scope: "col", textContent: x })))]),
      element("tbody", {}, rows),
    ]);
    const note = element("p", { className: "pe-live__note", textContent: t.note });
    ctx.views.replaceChildren(faces, element("div", { className: "pe-live__scroll" }, [table]), note);
    return t.summary({ p: s.p, q: s.q, h, turns: s.turns.map(deg) });
  }

  // The play button: p goes up by `rate` positions a second (back to 0 after the slider's end); the address is
  // written when it stops.
  function extra(ctx, form) {
    const { t, state } = ctx;
    const button = element("button", { type: "button", className: "pe-live__button" });
    const pressed = (playing) => {
      button.textContent = playing ? t.pause : t.play;
      button.setAttribute("aria-pressed", String(playing));
    };
    let [frame, origin, start] = [0, 0, 0];
    const stop = () => {
      if (!frame) return;
      cancelAnimationFrame(frame);
      frame = 0;
      pressed(false);
      state.update();
    };
    const tick = (now) => {
      if (start === null) start = now; // a frame's time can precede the click that started it
      const rate = state.data ? state.data.rate : 10;
      const p = (origin + Math.floor(((now - start) / 1000) * rate)) % 1001;
      if (String(p) !== state.values.position) ctx.set("position", p, { write: false, quiet: true });
      if (!state.data) return stop(); // settings made invalid while playing: stop, and say so on the button
      frame = requestAnimationFrame(tick);
    };
    button.addEventListener("click", () => {
      if (frame) return stop();
      if (!state.data) return;
      origin = state.data.p % 1001;
      start = null;
      pressed(true);
      frame = requestAnimationFrame(tick);
    });
    pressed(false);
    form.append(element("div", { className: "pe-live__field pe-live__field--button" }, [button]));
    form.addEventListener("input", (event) => event.isTrusted && stop());
  }

  live.register("clock", {
    fields: [
      { key: "position", value: 0, min: 0, max: 1000000, slider: { min: 0, max: 1000 } },
      { key: "offset", value: 10, min: 0, max: 100000, slider: { min: 0, max: 100 } },
      { key: "rate", type: "select", options: ["2", "10", "100"], value: "10" },
    ],
    text: TEXT, compute, render, extra,
  });
})();
