"""Any language a user or another tool's log names: a BCP-47 tag, an ISO 639 code, a FLORES code or an English
name, to the code a run folder keeps (``code_of``), and the name and script of a language ``languages/`` has no
file for (``name_of``, ``script_of``), from ``langcodes`` and its ``language_data``.

A language with a file here has every literal a parser or a prompt needs; any other valid language can still be a
language of a run that asks it nothing (an import of another tool's log): its name comes from the CLDR data.
"""

from __future__ import annotations

import re


class UnknownLanguage(ValueError):
    """``code_of`` could not read a language; the message says why (invalid tag, unknown name, no language)."""


def code_of(raw: object) -> str:
    """The run folder's code of a language: ISO 639-1 where the language has one (``ca``, ``hi``), else its ISO
    639-3 code (``fil``, ``ceb``); a region or script is dropped (``pt-BR`` → ``pt``, ``hin_Deva`` → ``hi``).

    Accepts a tag or code (``th``, ``tha``, ``pt_BR``, ``arb_Arab``: macrolanguages are folded), the English name of
    a language (``Catalan``; a registry name first).

    Raises:
        UnknownLanguage: empty, not a valid BCP-47 tag and not a language name, or a tag that names no language
            (``und``, ``zxx``); the message says which.
    """
    import langcodes

    from xlingmed.languages import LANGUAGES

    text = str(raw).strip()
    if not text:
        raise UnknownLanguage("an empty language code")
    names = {lang.name.lower(): code for code, lang in LANGUAGES.items()}
    if text.lower() in names:
        return names[text.lower()]
    tag = text.replace("_", "-")
    if langcodes.tag_is_valid(tag):
        language = langcodes.Language.get(langcodes.standardize_tag(tag, macro=True)).language
        if language in (None, "und", "zxx", "mis", "mul"):
            raise UnknownLanguage(f"{text!r} names no language (BCP-47 {language or 'und'})")
        return str(language)
    if re.fullmatch(r"[^\W\d_][\w ()'-]{3,}", text):  # a name: "Catalan", "Haitian Creole"
        try:
            found = langcodes.find(text)
        except (LookupError, ModuleNotFoundError):
            found = None
        # langcodes.find also matches near names ("Klingonese"): only the English name or the autonym is taken
        if found is not None and found.language and text.casefold() in {
            str(found.display_name()).casefold(), str(found.autonym()).casefold()}:  # fmt: skip
            return str(found.language)
        raise UnknownLanguage(f"{text!r} is not a BCP-47 tag nor a language name the CLDR data knows")
    raise UnknownLanguage(f"{text!r} is not a valid BCP-47 language tag (ISO 639 code, e.g. en, ca, tha, pt-BR)")


def name_of(code: str) -> str:
    """The English name of ``code``: the registry's, else CLDR's (``ca`` → ``Catalan``), else the code itself."""
    from xlingmed.languages import LANGUAGES

    if code in LANGUAGES:
        return LANGUAGES[code].name
    try:
        import langcodes

        name = str(langcodes.Language.get(code).display_name())
    except (ValueError, LookupError, ModuleNotFoundError):
        return code
    return code if name.startswith("Unknown language") else name


def script_of(code: str) -> str | None:
    """The ISO 15924 script ``code`` is usually written in (``th`` → ``Thai``), where known."""
    from xlingmed.languages import LANGUAGES

    if code in LANGUAGES:
        return LANGUAGES[code].script
    try:
        import langcodes

        script = langcodes.Language.get(code).maximize().script
    except (ValueError, LookupError, ModuleNotFoundError):
        return None
    return None if script in (None, "Zzzz") else str(script)
