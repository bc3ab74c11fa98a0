"""What a task's view is and the tools views draw with: ``base.py`` (the ``View`` class every task's view extends,
its tables, figures and annotation rows) and ``figures.py`` (plots). Each task's own view lives in its package
(``tasks/<name>/view.py``); ``tasks/run_views.py`` loops over a run's tasks."""

from xlingmed.views.base import Annotation, FigureSection, View, ViewTable

__all__ = ["Annotation", "FigureSection", "View", "ViewTable"]
