"""``python -m site_tools.book`` (``make pdf``): :func:`site_tools.book.main`."""

import sys

from site_tools.book import main

sys.exit(main())
