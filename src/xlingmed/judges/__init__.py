"""LLM graders and the parsers of their replies."""
