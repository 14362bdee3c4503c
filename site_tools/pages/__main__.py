"""``python -m site_tools.pages`` (``make parity``): :func:`site_tools.pages.main`."""

import sys

from site_tools.pages import main

sys.exit(main())
