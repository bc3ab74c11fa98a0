"""Credentials never reach what xlingmed records (issue 60).

A server URL may carry credentials (``https://user:pass@host/v1``, ``…?api-key=…``, Azure's ``?sig=…``); a run
records its configuration and command line in ``manifest.json``, and the report shows them. Every URL in what is
recorded is written without its user information and with key-like query values masked (``redact_urls``). An API
key is masked in every text a server sends back, of any length (``scrub``): an error that quotes the request, or a
reply that quotes the key itself (stored masked, so never forwarded to a judge).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import regex

MASK = "***"
# query parameters whose value is a credential (compared in lower case, "-" as "_")
_SECRET_PARAMS = frozenset({
    "key", "api_key", "apikey", "token", "access_token", "auth", "authorization", "secret", "client_secret",
    "password", "pass", "pwd", "sig", "signature", "code", "x_api_key", "subscription_key", "sas", "session",
})  # fmt: skip
_URL = regex.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>]+")


def redact_url(url: str) -> str:
    """``url`` without user information and with key-like query values masked; unparseable URLs whole masked."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        netloc = f"{MASK}@{host}" if "@" in parts.netloc else parts.netloc
        if parts.port and "@" in parts.netloc:
            netloc += f":{parts.port}"
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return MASK
    safe = [(k, MASK if k.lower().replace("-", "_") in _SECRET_PARAMS else v) for k, v in query]
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(safe, safe="*") if query else parts.query,
                       parts.fragment))  # fmt: skip


def redact_urls(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with every URL in every string passed through ``redact_url``."""
    if isinstance(value, str):
        return _URL.sub(lambda m: redact_url(m.group()), value) if "://" in value else value
    if isinstance(value, dict):
        return {k: redact_urls(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_urls(v) for v in value]
    return value


def redact_mapping(value: dict[str, Any]) -> dict[str, Any]:
    """``redact_urls`` of a mapping (a manifest, a summary), typed as one."""
    return {k: redact_urls(v) for k, v in value.items()}


def scrub(text: str, secret: str | None) -> str:
    """``text`` with ``secret`` masked wherever it appears, whatever its length (a placeholder key sent to a local
    server that wants none, ``not-needed``, is no secret)."""
    if not secret or secret == "not-needed" or not text:
        return text
    return text.replace(secret, MASK)
