"""Publishing the site: its public address, head links, what a static host needs, and ``make deploy``.

- **Addresses.** The English site's public address is ``site_url`` in ``mkdocs.yml`` (the GitHub Pages
  address), unless ``$SITE_URL`` names another; every other language lives under ``<address><lang>/``.
  :func:`language_url` is the one place that derives a language's address from the English one.
- **Twins.** :func:`alternate_links` turns ``extra.alternate`` (links relative to each site's root) into absolute
  addresses, so the 404 page can link both homes and :func:`sitemap_alternates` can name each page's twin in every
  language in the sitemap (Google's ``xhtml:link rel="alternate" hreflang``, with ``x-default``: English). The
  twins are not named in the pages' heads: Material's script fetches ``<href>/sitemap.xml`` for every
  ``<link rel="alternate">`` there, which for a page's twin (``…/zh/formula/sitemap.xml``) does not exist; its own
  links, to each language's home, find each language's sitemap.
- **Page weight.** :func:`drop_source_maps` removes the ``*.map`` files Material ships next to its bundles, which
  nothing on the site loads.
- **Static host.** :func:`write_nojekyll` marks the output as plain files for GitHub Pages (no Jekyll run,
  which would drop paths starting with ``_`` such as ``assets/_mkdocstrings.css``).
- **Deploy.** :func:`deploy` (``python -m site_tools.build.publish``, ``make deploy``) commits the built site to the
  ``gh-pages`` branch.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import logging
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import yaml

from site_tools import ROOT, SITE_DIR

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


class _ConfigLoader(yaml.SafeLoader):
    """YAML as in a MkDocs config, its Python tags (``!!python/object/apply:…``, the slug function) read as nothing:
    for the one plain setting read here."""


_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def configured_site_url() -> str:
    """The ``site_url`` written in ``mkdocs.yml`` (the address used when ``$SITE_URL`` is not set)."""
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as fd:
        url = (yaml.load(fd, Loader=_ConfigLoader) or {}).get("site_url")  # a SafeLoader
    if not url:
        raise ValueError("mkdocs.yml must set site_url (the site's public address)")
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
    urls = [urljoin(site_url, alt["link"]) for alt in alternates]
    return [{**alt, "url": url, "path": urlsplit(url).path} for alt, url in zip(alternates, urls, strict=True)]


SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def sitemap_alternates(site_dir: Path | str, lang: str, alternates: Sequence[Mapping[str, Any]]) -> int:
    """Name each page's twin in every language in a language's ``sitemap.xml`` (and ``sitemap.xml.gz``, if the
    engine wrote one): an ``xhtml:link rel="alternate" hreflang`` per language and ``x-default`` (English) in each
    ``<url>`` whose ``<loc>`` is on this language's site. ``alternates`` are :func:`alternate_links`' (each with its
    absolute ``url``); ``lang`` is this site's language. Returns the pages named; 0 (and nothing written) without a
    sitemap or addresses.
    """
    path = Path(site_dir) / "sitemap.xml"
    own = next((str(a["url"]) for a in alternates if a.get("lang") == lang and a.get("url")), None)
    if not path.is_file() or own is None:
        return 0
    ET.register_namespace("", SITEMAP_NS)
    ET.register_namespace("xhtml", XHTML_NS)
    tree = ET.parse(path)
    named = 0
    for url in tree.getroot().iter(f"{{{SITEMAP_NS}}}url"):
        loc = url.find(f"{{{SITEMAP_NS}}}loc")
        if loc is None or not (loc.text or "").startswith(own):
            continue
        for old in url.findall(f"{{{XHTML_NS}}}link"):
            url.remove(old)
        page = (loc.text or "")[len(own) :]
        for alt in alternates:
            for hreflang in (alt["lang"], "x-default") if alt["lang"] == "en" else (alt["lang"],):
                link = ET.Element(f"{{{XHTML_NS}}}link", rel="alternate", hreflang=hreflang, href=f"{alt['url']}{page}")
                url.append(link)  # after <lastmod>: the sitemap schema puts other namespaces last
        named += 1
    ET.indent(tree, space="  ")
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tree.getroot(), encoding="unicode") + "\n"
    path.write_text(text, encoding="utf-8")
    packed = path.with_name("sitemap.xml.gz")
    if packed.is_file():
        with gzip.open(packed) as fd:
            fd.read()
            mtime = fd.mtime  # the engine's (the build timestamp): kept, so that builds stay reproducible
        packed.write_bytes(gzip.compress(text.encode("utf-8"), mtime=mtime))
    return named


_MAP_COMMENT = re.compile(rb"\n?(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^*]*\*/)\s*$")


def drop_source_maps(site_dir: Path | str) -> list[str]:
    """Delete every ``*.map`` under ``site_dir`` and the ``sourceMappingURL`` comments pointing at them.

    Returns the removed files, relative to ``site_dir``.
    """
    site_dir = Path(site_dir)
    maps = sorted(site_dir.rglob("*.map"))
    for path in maps:
        path.unlink()
    for path in [*site_dir.rglob("*.js"), *site_dir.rglob("*.css")]:
        data = path.read_bytes()
        stripped = _MAP_COMMENT.sub(b"\n", data)
        if stripped != data:
            path.write_bytes(stripped)
    return [path.relative_to(site_dir).as_posix() for path in maps]


def write_nojekyll(site_dir: Path | str) -> Path:
    """Create ``site_dir/.nojekyll``: GitHub Pages then serves the files as they are."""
    path = Path(site_dir) / ".nojekyll"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    return path


def deploy(
    site_dir: Path | None = None,
    *,
    repo: Path = ROOT,
    branch: str = "gh-pages",
    push: bool = False,
    remote: str = "origin",
) -> str:
    """Commit the built ``site_dir`` (default ``site/``) as the whole tree of ``branch`` (ghp-import, with
    ``.nojekyll``); push if asked.

    Returns the commit message. The branch's previous commit stays its parent, so its history is kept.

    Raises:
        FileNotFoundError: ``site_dir`` does not hold both languages and the 404 page (build it first).
        ghp_import.GhpError: ``repo`` is not a git repository, or committing or pushing failed.
    """
    import subprocess

    from ghp_import import ghp_import

    site_dir = SITE_DIR if site_dir is None else Path(site_dir)
    missing = [rel for rel in ("index.html", "404.html", "zh/index.html") if not (site_dir / rel).is_file()]
    if missing:
        raise FileNotFoundError(f"{site_dir} lacks {', '.join(missing)}: build the site first (make site)")
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True, check=False
    ).stdout.strip()
    message = f"Deploy the site built from {head or 'a working tree'}"
    with contextlib.chdir(repo):  # ghp-import runs git in the current directory
        ghp_import(str(site_dir.resolve()), mesg=message, branch=branch, nojekyll=True, push=push, remote=remote)
    logging.getLogger("pe-docs").info(
        "committed %s to %s%s", site_dir, branch, f" and pushed to {remote}" if push else " (not pushed)"
    )
    return message


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m site_tools.build.publish", description="commit site/ to the gh-pages branch (make deploy)"
    )
    parser.add_argument("--push", action="store_true", help="push gh-pages to origin after committing")
    parser.add_argument("--site-dir", type=Path, default=SITE_DIR, help="the built site (default: site/)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    deploy(args.site_dir, push=args.push)
    return 0


if __name__ == "__main__":
    sys.exit(main())
