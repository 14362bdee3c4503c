"""Building and serving the site: ``make site`` (:mod:`site_tools.build.site`; ``python -m site_tools.build``),
``make serve`` (:mod:`~site_tools.build.preview`), ``make deploy`` (:mod:`~site_tools.build.publish`), the engine
(:mod:`~site_tools.build.engine`, :mod:`~site_tools.build.hooks`), what the build adds to the pages (figures,
chapter notebooks), the notebooks and page blocks run as a reader would (:mod:`~site_tools.build.kernels`) and the
watch on the engine's successors."""
