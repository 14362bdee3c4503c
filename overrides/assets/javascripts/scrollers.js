// Keyboard access to what scrolls sideways: display formulas (typeset at build time by site_tools/math.py, which
// makes each a focusable region named in the page's language, so they can be reached without JavaScript too) and
// tables (Material wraps each in a scrolling .md-typeset__scrollwrap). Here each is a tab stop, and a named
// region, only while it is wider than its box; a formula or table that fits is left alone. Material does the same
// for code blocks.
document$.subscribe(() => {
  const zh = document.documentElement.lang.startsWith("zh");
  const names = { formula: zh ? "公式" : "Formula", table: zh ? "表格" : "Table" };
  const boxes = new Map();
  document.querySelectorAll(".md-typeset .katex-display").forEach((el) => boxes.set(el, names.formula));
  document.querySelectorAll(".md-typeset table").forEach((table) => {
    boxes.set(table.closest(".md-typeset__scrollwrap") || table, names.table);
  });
  const update = (el) => {
    if (el.scrollWidth > el.clientWidth + 1) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", boxes.get(el));
    } else {
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    }
  };
  const resized = new ResizeObserver((entries) => entries.forEach((entry) => update(entry.target)));
  boxes.forEach((_, el) => resized.observe(el));  // observing reports each box's size once at the start
});
