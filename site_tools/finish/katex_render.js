// KaTeX on node for the build (site_tools/finish/formulas.py starts one of these per build and sends it every page's math).
//
// Protocol: one JSON line in per page, an array of {tex, display}; one JSON line out, an array in the same order
// of {html, warnings} or {error} (a formula KaTeX cannot parse). The options are those the pages used to give
// KaTeX's auto-render in the browser: throwOnError, HTML plus MathML, and one macro table per page (auto-render
// shares \gdef definitions between the formulas of one call). KaTeX's strict-mode warnings are returned, not
// printed, so the build can report them with their page.
"use strict";

const readline = require("readline");
const katex = require("katex");

function renderPage(formulas) {
  const macros = {};
  return formulas.map(({ tex, display }) => {
    const warnings = [];
    try {
      const html = katex.renderToString(tex, {
        displayMode: display,
        output: "htmlAndMathml",
        throwOnError: true,
        macros,
        // Same output as KaTeX's default "warn" (the behaviour of non-strict input is unchanged), but collected.
        strict: (code, message) => {
          warnings.push(`${code}: ${message}`);
          return "ignore";
        },
      });
      return { html, warnings };
    } catch (err) {
      if (err instanceof katex.ParseError) return { error: err.message };
      throw err;
    }
  });
}

const lines = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
lines.on("line", (line) => {
  process.stdout.write(JSON.stringify(renderPage(JSON.parse(line))) + "\n");
});
