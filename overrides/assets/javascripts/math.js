// Typeset math with the self-hosted KaTeX (no CDN). Material re-emits document$ on every page load.
// Pages written in Markdown carry arithmatex's \( \) and \[ \] delimiters; notebook cells carry $ and $$.
document$.subscribe(({ body }) => {
  renderMathInElement(body, {
    delimiters: [
      { left: "$$", right: "$$", display: true },
      { left: "\\[", right: "\\]", display: true },
      { left: "\\(", right: "\\)", display: false },
      { left: "$", right: "$", display: false },
    ],
    ignoredClasses: ["highlight", "md-search", "md-header", "md-nav"],
    throwOnError: true,
  });
});
