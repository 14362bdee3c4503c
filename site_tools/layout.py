"""The site's layout as data, the floor the four subpackages stand on (``tests/test_layers.py``): its languages and
config files, where the pages and the built site are, a config as written and its nav, where a page is written and
its URL, and the site's addresses.

- **Configs.** :func:`read_config_file` is the one reader of a config file as written: as MkDocs reads it, without
  importing MkDocs, which only the engine and its hooks do (``tests/test_engine.py`` compares the two readings).
  ``site_tools.build.engine.load`` loads a config, theme and plugins, for a build.
- **Addresses.** The English site's public address is ``site_url`` in ``mkdocs.yml`` (the GitHub Pages address),
  unless ``$SITE_URL`` names another; every other language lives under ``<address><lang>/``. :func:`language_url` is
  the one place that derives a language's address from the English one. :func:`alternate_links` turns
  ``extra.alternate`` (links relative to each site's root) into absolute addresses, so the 404 page can link both
  homes and the finishing pass can name each page's twins in the sitemap (``site_tools.finish``).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from site_tools import ROOT

LANGS = ("en", "zh")
CONFIGS: dict[str, Path] = {"en": ROOT / "mkdocs.yml", "zh": ROOT / "mkdocs.zh.yml"}  # each language's config
DOCS = ROOT / "docs"  # the pages: docs/<lang>/
SITE_DIR = ROOT / "site"  # where make site writes the English site (the Chinese one inside it, zh/)
SITE_URL_ENV = "SITE_URL"
#: An external link in a nav, never a page: a scheme (``https:``, ``mailto:``) or an absolute path.
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|/)", re.I)


def read_config_file(path: Path) -> dict[str, Any]:
    """A config file's settings as written, as MkDocs' ``yaml_load`` reads them (PyYAML's full loader, Python tags
    constructed, in its C build: a tenth of the pure-Python one's time; the file ``INHERIT`` names merged under it,
    mapping by mapping), its ``!ENV`` tag aside."""
    import yaml

    with open(path, "rb") as fd:
        config = yaml.load(fd, Loader=getattr(yaml, "CLoader", yaml.Loader)) or {}
    if "INHERIT" in config:
        return _merged(read_config_file(Path(path).parent / config.pop("INHERIT")), config)
    return config


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    both = {k: _merged(base[k], v) for k, v in over.items() if isinstance(v, dict) and isinstance(base.get(k), dict)}
    return {**base, **over, **both}


def raw_config(lang: str) -> dict[str, Any]:
    """A language's config file as written (:func:`read_config_file`): for what needs a few settings fast (the
    notebooks' site name, repository and language). The address is not in it: use ``site_tools.build.engine.load``,
    or ``language_url(public_url(), lang)``.

    Raises:
        ValueError: an unknown language.
    """
    check_lang(lang)
    return read_config_file(CONFIGS[lang])


def check_lang(lang: str) -> None:
    """Raises ValueError if ``lang`` is not one of :data:`CONFIGS`."""
    if lang not in CONFIGS:
        raise ValueError(f"lang must be one of {sorted(CONFIGS)}, got {lang!r}")


def nav_pages(nav: list[Any] | None) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every page file of a config's ``nav`` (page files, ``{title: file}``, ``{section: [...]}``), in order, with
    the titles of the sections it sits in, outermost first (a page at the top level: ``()``); external links
    (:data:`EXTERNAL`) are skipped.

    >>> list(nav_pages(["index.md", {"Learn": ["a.md", {"B": "b.md"}]}, {"Ext": "https://x.org/"}]))
    [('index.md', ()), ('a.md', ('Learn',)), ('b.md', ('Learn',))]

    Raises:
        ValueError: an entry is not a file, a section or a link.
    """
    for entry in nav or []:
        title, value = (None, entry) if isinstance(entry, str) else _entry(entry)
        if isinstance(value, list):
            yield from ((page, (str(title), *within)) for page, within in nav_pages(value))
        elif not EXTERNAL.match(value):
            yield value, ()


def _entry(item: Any) -> tuple[Any, Any]:
    if isinstance(item, dict) and len(item) == 1:
        ((title, value),) = item.items()
        if isinstance(value, str | list):
            return title, value
    raise ValueError(f"a nav entry must be a page file, {{title: file}} or {{section: [entries]}}, got {item!r}")


def page_file(src_uri: str, use_directory_urls: bool = True) -> str:
    """The file a source page is written to, relative to the site folder, as MkDocs names it:
    ``formula.md`` → ``formula/index.html``, ``index.md`` → ``index.html``."""
    parent, filename = posixpath.split(src_uri)
    stem = posixpath.splitext(filename)[0]
    stem = "index" if stem == "README" else stem
    if not use_directory_urls or stem == "index":
        return posixpath.join(parent, stem + ".html")
    return posixpath.join(parent, stem, "index.html")


def page_url(src_uri: str, use_directory_urls: bool = True) -> str:
    """A source page's URL relative to the site's root, as MkDocs gives it (``page.url``): ``formula/``, and ``""``
    for the home page.

    >>> page_url("index.md"), page_url("formula.md"), page_url("deep/index.md"), page_url("walkthrough.md")
    ('', 'formula/', 'deep/', 'walkthrough/')
    """
    url = page_file(src_uri, use_directory_urls)
    dirname, filename = posixpath.split(url)
    if use_directory_urls and filename == "index.html":
        url = (dirname or ".") + "/"
    url = quote(url)
    return "" if url in (".", "./") else url


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


def configured_site_url() -> str:
    """The ``site_url`` written in ``mkdocs.yml`` (the address used when ``$SITE_URL`` is not set)."""
    url = (read_config_file(CONFIGS["en"]) or {}).get("site_url")
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
