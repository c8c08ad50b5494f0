"""The wild battery's parts (``make bench-wild``, :mod:`benchmarks.wild_bench`): the package's own
links, LibreOffice's view, identifier spans, judged findings, seeded defects, the editors' replay."""
