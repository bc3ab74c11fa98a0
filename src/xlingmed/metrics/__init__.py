"""Metrics: pure functions of text or labels (no I/O, no global state)."""
