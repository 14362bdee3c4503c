"""Building and serving the site: ``make site`` (:mod:`site_tools.build.site`; ``python -m site_tools.build``),
``make serve`` (:mod:`~site_tools.build.preview`), ``make deploy`` (:mod:`~site_tools.build.publish`), the engine
(:mod:`~site_tools.build.engine`, :mod:`~site_tools.build.hooks`), what the build adds to the pages (figures,
chapter notebooks) and the watch on the engine's successors."""
