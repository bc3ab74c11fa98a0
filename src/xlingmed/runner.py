"""The engine's entry points under their 0.1 module name (``xlingmed.engine`` holds them since 0.2; this module
stays importable for one release)."""

from xlingmed.engine import *  # noqa: F403  (the same names)
from xlingmed.engine import __all__ as __all__
