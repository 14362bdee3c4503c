"""The shape of a test run, as pytest plugins (``tests/conftest.py`` lists them), one concern each:

- :mod:`harness.run`: the run's shared folder, handed to every pytest-xdist worker; one torch thread per process.
- :mod:`harness.built_site`: the site, built once per run (strict) and served under a sub-path, like GitHub Pages.
- :mod:`harness.notebooks`: the chapter notebooks, started in the background as soon as the selected tests are known.
- :mod:`harness.page_selection`: ``--page <slug>`` (``make check``): the tests of one page.
- :mod:`harness.scheduling`: units a worker runs whole, longest first.
- :mod:`harness.block_cache`: a page block's test: when it may pass without running (one rule, one function), that
  every assertion of it ran, where it failed.
- :mod:`harness.scratch`: copies of the repository a test may change (a release tarball, a scratch checkout).
- :mod:`harness.live`: the explorers' browser tests' shared part (``tests/test_live_*.py``).
"""
