"""Site tooling: figure generation, the mkdocs hooks, build/serve orchestration and site checks.

Plain Python that the tests import; nothing here is imported by the ``pe_docs`` library.
"""

from pathlib import Path

#: The repository's root folder.
ROOT = Path(__file__).resolve().parent.parent
