"""An example xlingmed plugin: one benchmark, one task, one backend and one answer metric (docs/extending.md)."""
