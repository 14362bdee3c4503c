"""Site tooling: figure generation, the mkdocs hooks, build/serve orchestration and site checks.

Plain Python that the tests import; nothing here is imported by the ``pe_docs`` library.
"""
