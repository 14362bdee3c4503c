"""``python -m site_tools.build`` (``make site``): :func:`site_tools.build.site.main`."""

import sys

from site_tools.build.site import main

sys.exit(main())
