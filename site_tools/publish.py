"""What the published site needs beyond MkDocs' defaults: its public address, head links, page weight.

- **Addresses.** The English site's public address is ``site_url`` in ``mkdocs.yml`` (the GitHub Pages
  address), unless ``$SITE_URL`` names another; every other language lives under ``<address><lang>/``.
  :func:`language_url` is the one place that derives a language's address from the English one.
- **Head links.** :func:`alternate_links` turns ``extra.alternate`` (links relative to each site's root)
  into absolute addresses, so each page can name its twin in the other language
  (``<link rel="alternate" hreflang>`` in ``overrides/main.html``) and the 404 page can link both homes.
- **Page weight.** :func:`externalize_styles` moves mkdocs-jupyter's inlined JupyterLab stylesheet (~570 KB
  per notebook page) into one content-addressed file that browsers cache; :func:`drop_source_maps` removes
  the ``*.map`` files Material ships next to its bundles, which nothing on the site loads.
- **Static host.** :func:`write_nojekyll` marks the output as plain files for GitHub Pages (no Jekyll run,
  which would drop paths starting with ``_`` such as ``assets/_mkdocstrings.css``).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
BASE_CONFIG = ROOT / "mkdocs.yml"
SITE_URL_ENV = "SITE_URL"


def check_site_url(url: str) -> str:
    """Return ``url`` with a trailing slash, or raise if it is not an absolute http(s) address.

    Raises:
        ValueError: ``url`` has no http/https scheme or no host, or carries a query or fragment.
    """
    if not isinstance(url, str):
        raise TypeError(f"site_url must be a string, got {type(url).__name__}")
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"site_url must be an absolute http(s) address like https://example.org/docs/, got {url!r}")
    return url if url.endswith("/") else url + "/"


def configured_site_url(config_file: Path = BASE_CONFIG) -> str:
    """The ``site_url`` written in the English config (the address used when ``$SITE_URL`` is not set)."""
    from mkdocs.utils.yaml import yaml_load

    with open(config_file, encoding="utf-8") as fd:
        url = yaml_load(fd).get("site_url")
    if not url:
        raise ValueError(f"{config_file.name} must set site_url (the site's public address)")
    return check_site_url(url)


def public_url(explicit: str | None = None) -> str:
    """The English site's public address: ``explicit``, else ``$SITE_URL``, else ``mkdocs.yml``'s ``site_url``."""
    url = explicit or os.environ.get(SITE_URL_ENV) or None
    return check_site_url(url) if url else configured_site_url()


def language_url(base: str, lang: str) -> str:
    """The public address of ``lang``'s site given the English one: English at ``base``, others under it."""
    base = check_site_url(base)
    if not re.fullmatch(r"[a-z]{2}(-[A-Za-z]+)?", lang):
        raise ValueError(f"lang must be a language code like 'en' or 'zh', got {lang!r}")
    return base if lang == "en" else urljoin(base, f"{lang}/")


def alternate_links(site_url: str | None, alternates: list[dict]) -> list[dict]:
    """``extra.alternate`` with each language's absolute home ``url`` and its ``path`` on the host added.

    ``alternates`` hold links relative to this site's root (``./``, ``zh/``, ``../``); ``site_url`` is this
    language's public address. Without a ``site_url`` the entries are returned unchanged.
    """
    if not site_url:
        return alternates
    site_url = check_site_url(site_url)
    out = []
    for alt in alternates:
        url = urljoin(site_url, alt["link"])
        out.append({**alt, "url": url, "path": urlsplit(url).path})
    return out


# mkdocs-jupyter's theme stylesheets: <style> elements whose rules are all scoped to .jupyter-wrapper.
_STYLE = re.compile(r"<style(?:\s[^>]*)?>(?P<css>.*?)</style>", re.S | re.I)
STYLE_MARKER = ".jupyter-wrapper"
STYLES_DIR = "assets/stylesheets/notebook"


def externalize_styles(html: str, page_url: str, site_dir: Path | str, marker: str = STYLE_MARKER) -> str:
    """Replace each inline ``<style>`` whose CSS contains ``marker`` by a ``<link>`` to a generated file.

    The file is ``assets/stylesheets/notebook/<sha256 of the CSS, 16 hex>.css`` under ``site_dir``: every
    notebook page links the same file, so a browser fetches it once. The link sits where the ``<style>``
    was, so the cascade order is unchanged. ``page_url`` is the page's URL relative to the site root
    (``walkthrough/``), used to make the link relative.
    """
    from mkdocs.utils import get_relative_url

    site_dir = Path(site_dir)

    def replace(m: re.Match[str]) -> str:
        css = m.group("css")
        if marker not in css:
            return m.group(0)
        data = css.strip().encode("utf-8")
        rel = f"{STYLES_DIR}/{hashlib.sha256(data).hexdigest()[:16]}.css"
        target = site_dir / rel
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data + b"\n")
        href = get_relative_url(rel, page_url)
        return f'<link rel="stylesheet" href="{href}">'

    return _STYLE.sub(replace, html)


_MAP_COMMENT = re.compile(rb"\n?(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^*]*\*/)\s*$")


def drop_source_maps(site_dir: Path | str) -> list[str]:
    """Delete every ``*.map`` under ``site_dir`` and the ``sourceMappingURL`` comments pointing at them.

    Returns the removed files, relative to ``site_dir``.
    """
    site_dir = Path(site_dir)
    removed = []
    for path in sorted(site_dir.rglob("*.map")):
        path.unlink()
        removed.append(path.relative_to(site_dir).as_posix())
    for path in [*site_dir.rglob("*.js"), *site_dir.rglob("*.css")]:
        data = path.read_bytes()
        stripped = _MAP_COMMENT.sub(b"\n", data)
        if stripped != data:
            path.write_bytes(stripped)
    return removed


def write_nojekyll(site_dir: Path | str) -> Path:
    """Create ``site_dir/.nojekyll``: GitHub Pages then serves the files as they are."""
    path = Path(site_dir) / ".nojekyll"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    return path
