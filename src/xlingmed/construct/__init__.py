"""Build a benchmark, not only run it: translation with quality checks (``translate``), named transforms such as
paraphrase, GEC and dediacritisation (``variants``), and LLM ratings of a dataset's quality (``audit``).

Each produces files that xlingmed reads back (``qa:FILE``/``mcq:FILE``, or an audit folder), with the provenance
of every item beside its fields; every model call goes through the completion cache (``generate.py``).
"""
