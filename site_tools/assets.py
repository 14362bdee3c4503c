"""Front-end assets the site serves itself: KaTeX from the pinned npm package (see package.json)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
# What the pages load: the renderer, its stylesheet, the auto-render extension and the fonts the CSS names.
_KATEX_FILES = ("katex.min.js", "katex.min.css", "contrib/auto-render.min.js")


def katex_files() -> dict[str, Path]:
    """Map site paths ``assets/katex/...`` to the files in ``node_modules/katex/dist``.

    Raises:
        FileNotFoundError: KaTeX is not installed (run ``make setup``, which runs ``npm ci``).
    """
    if not (KATEX_DIST / "katex.min.js").is_file():
        raise FileNotFoundError(f"KaTeX not found in {KATEX_DIST}; run `make setup` (it runs `npm ci`) to install it")
    out = {f"assets/katex/{name}": KATEX_DIST / name for name in _KATEX_FILES}
    for font in sorted((KATEX_DIST / "fonts").iterdir()):
        out[f"assets/katex/fonts/{font.name}"] = font
    return out
