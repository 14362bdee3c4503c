"""``make deploy``: :func:`deploy` (``python -m site_tools.build.publish``) commits the built site to the ``gh-pages``
branch. The site's addresses are ``site_tools.layout``'s; what a static host needs (``.nojekyll``, no source maps,
the sitemap's twins) is done by the finishing pass (``site_tools.finish``).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from pathlib import Path

from site_tools import ROOT
from site_tools.layout import SITE_DIR


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
