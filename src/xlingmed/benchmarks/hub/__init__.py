"""The published multilingual medical benchmarks, one file each, read from the Hugging Face hub (or a local copy in
its layout with ``--data-dir``) through the ``datasets`` library; nothing is fetched at import.

``base.py`` says what they share (``HubBenchmark``): languages, whether items are parallel and the id that pairs
them, licence and gate, each item's translation provenance. Adding one is a file here and its line in
``benchmarks.base.BUILTIN_MODULES``.
"""
