// Keyboard access to what scrolls sideways: display formulas (typeset at build time by site_tools/finish/formulas.py,
// which makes each a focusable region named in the page's language, so they can be reached without JavaScript too),
// and tables (Material wraps each in a scrolling .md-typeset__scrollwrap). Each is a tab stop, and a region named in
// the page's language, only while it is wider than its box; one that fits is left alone. Material makes its own code
// blocks (pre > code) tab stops where the reader can hover (its bundle: `d&&r?e.setAttribute("tabindex","0")`, r =
// matchMedia("(hover)").matches, Material 9.8.1); on a touch screen, a phone's, this does it for them.
document$.subscribe(() => {
  const zh = document.documentElement.lang.startsWith("zh");
  const names = zh
    ? { formula: "公式", table: "表格", code: "代码" }
    : { formula: "Formula", table: "Table", code: "Code" };
  const boxes = new Map();
  const add = (selector, kind, box = (el) => el) => {
    document.querySelectorAll(selector).forEach((el) => boxes.set(box(el), names[kind]));
  };
  add(".md-typeset .katex-display", "formula");
  add(".md-typeset table", "table", (table) => table.closest(".md-typeset__scrollwrap") || table);
  if (!matchMedia("(hover)").matches) add(".md-typeset pre > code", "code");
  const scrolls = (el) => {
    const overflow = getComputedStyle(el).overflowX;
    return (overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1;
  };
  const setRegion = (el) => {
    const wide = scrolls(el);
    for (const [name, value] of [["tabindex", "0"], ["role", "region"], ["aria-label", boxes.get(el)]]) {
      if (wide) el.setAttribute(name, value);
      else el.removeAttribute(name);
    }
  };
  const resized = new ResizeObserver((entries) => entries.forEach((entry) => setRegion(entry.target)));
  boxes.forEach((_, el) => resized.observe(el)); // observing reports each box's size once at the start
});
