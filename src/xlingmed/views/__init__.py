"""One view per task: the tables of its results and the counts of what was lost, shown by the command line and
the HTML report alike (``base.py`` says what a view is; one module per task).

A task names its view in its ``TaskSpec`` (``view="xlingmed.views.<task>"``); a task without one is shown by
``generic.py`` from its summary."""

from xlingmed.views.base import ViewTable, losses_of, tables_of

__all__ = ["ViewTable", "losses_of", "tables_of"]
