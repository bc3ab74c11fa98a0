"""Reading a model's reply: every parser returns the value *and how it was read* (``types.Parsed``).

``choice`` finds the option a multiple-choice reply chose (or says it found none), reading its final commitment;
it leans on ``text`` (normalisation that keeps positions), ``literals`` (every language's reading words),
``mentions`` (where a reply names an option, and whether negated) and ``reply`` (lines, sentences, lists that
discuss the options). ``methods`` sorts every parse method of every task into read / fallback / unread / refused /
error and counts them per language, so a gap between languages that only the parser made is visible.
"""
