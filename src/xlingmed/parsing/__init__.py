"""Reading a model's reply: every parser returns the value *and how it was read* (``types.Parsed``).

``choice`` finds the option a multiple-choice reply chose (or says it found none); ``methods`` sorts every
parse method of every task into read / fallback / unread / refused / error and counts them per language, so a
gap between languages that only the parser made is visible.
"""
