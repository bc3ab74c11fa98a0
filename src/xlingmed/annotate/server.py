"""The annotation web app: one page per item, for either kind of annotation set.

* a judge check (XLingEval App. C, Fig. A1): agree / disagree with the judge's reasoning and label;
* a translation rating (XLingEval App. A, Table A2): the source text beside its machine translation, each in its
  own language and direction, rated 1–5 for fluency and meaning; which engine translated it is never shown.

Starlette + Jinja2, server-side rendered, one small inline script (keyboard shortcuts) allowed by a per-response
nonce. Security, because model and dataset text are untrusted and annotators are distinct people:

* every text is rendered by Jinja2 with autoescaping, under a Content-Security-Policy that forbids any other
  script, frame or remote resource — a ``<script>`` in a model answer is shown as text;
* an annotator is identified only by the secret token in their link; every route looks the token up and reads
  or writes that annotator's answers only (an unknown token is a 404, never someone else's page);
* writes need a CSRF token (HMAC of the annotator with a secret kept in the set folder, mode 0600) and a
  same-origin ``Origin`` when the browser sends one;
* no request value reaches the filesystem: items are addressed by their position in the set;
* the server binds 127.0.0.1 unless ``allow_remote`` (then it warns), and answers only requests whose ``Host`` is
  the address it serves (DNS rebinding);
* a post is a urlencoded form of at most ``MAX_FORM_BYTES``, capped while it is read (a long body never fills
  the server's memory).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from jinja2 import Environment, PackageLoader
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from xlingmed.annotate.answers import Answer, AnswerStore
from xlingmed.annotate.ratings import DIMENSIONS, SCALE_NAMES, Rating, RatingStore, check_score
from xlingmed.annotate.sample import AnnotationSet
from xlingmed.annotate.translations import FIELD_NAMES, language_name, question_text
from xlingmed.errors import ConfigError
from xlingmed.languages import LANGUAGES

RTL = frozenset({"ar", "fa", "he", "ur"})
MAX_FORM_BYTES = 16_384
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


class _JudgePages:
    """A judge-check set (``sample.py``): agree / disagree with the judge's reasoning and label."""

    template = "item.html.j2"

    def __init__(self, annotation_set: AnnotationSet) -> None:
        self.set = annotation_set
        self.store = AnswerStore(annotation_set.path / "answers.sqlite")
        self.label_names: dict[str, str] = annotation_set.settings.get("label_names", {})

    def done(self, who: str) -> dict[str, Any]:
        return dict(self.store.of(who))

    def context(self, item: dict[str, Any]) -> dict[str, Any]:
        lang = item["lang"]
        return {
            "labels": [(lab, self.label_names.get(lab, lab)) for lab in self.set.labels],
            "judge_label_name": self.label_names.get(item["label"], item["label"]),
            "lang": lang,
            "lang_name": LANGUAGES[lang].name if lang in LANGUAGES else lang,
            "dir": "rtl" if lang in RTL else "ltr",
        }

    def save(self, who: str, item: dict[str, Any], form: dict[str, str]) -> None:
        self.store.save(
            Answer(who, item["id"], form.get("verdict", ""), form.get("label", ""), form.get("reason", "")),
            labels=self.set.labels,
            judge_label=item["label"],
        )


class _TranslationPages:
    """A translation-rating set (``translations.py``): the source beside the translation, fluency and meaning on
    the 1–5 scale. The engine is never rendered (blind rating)."""

    template = "translation.html.j2"

    def __init__(self, annotation_set: AnnotationSet) -> None:
        self.store = RatingStore(annotation_set.path / "ratings.sqlite")

    def done(self, who: str) -> dict[str, Any]:
        return dict(self.store.of(who))

    def context(self, item: dict[str, Any]) -> dict[str, Any]:
        target, source = item["lang"], item["source_lang"]
        return {
            "lang": target,
            "dir": "rtl" if target in RTL else "ltr",
            "target_name": language_name(target),
            "source_lang": source,
            "source_dir": "rtl" if source in RTL else "ltr",
            "source_name": language_name(source),
            "field_name": FIELD_NAMES.get(item["field"], item["field"]),
            "questions": [(dim, question_text(dim, target, source)) for dim in DIMENSIONS],
            "scale": list(SCALE_NAMES.items()),
        }

    def save(self, who: str, item: dict[str, Any], form: dict[str, str]) -> None:
        fluency, meaning = (check_score(form.get(dim, ""), dim) for dim in DIMENSIONS)
        self.store.save(Rating(who, item["id"], fluency, meaning))


def _headers(nonce: str) -> dict[str, str]:
    """The security headers of every page (its scripts allowed by ``nonce`` only)."""
    return {
        "Content-Security-Policy": f"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",  # the token is in the URL: never send it to another site
        "Cache-Control": "no-store",
    }


async def _root(request: Request) -> Response:
    return PlainTextResponse("xlingmed annotation server: open the link with your token", status_code=404)


class _Handlers:
    """The app's pages for one set: the start link (to the first open item) and each item's page (GET shows it,
    POST saves the annotator's answer)."""

    def __init__(self, annotation_set: AnnotationSet) -> None:
        # autoescape for every template (select_autoescape goes by extension and would miss "*.html.j2")
        env = Environment(loader=PackageLoader("xlingmed.annotate", "templates"), autoescape=True)
        self.annotation_set = annotation_set
        self.pages: _JudgePages | _TranslationPages = (
            _TranslationPages(annotation_set) if annotation_set.kind == "translation" else _JudgePages(annotation_set)
        )
        self.page = env.get_template(self.pages.template)
        self.server_secret = _csrf_secret(annotation_set.path / ".csrf_secret")
        self.items = annotation_set.items

    def csrf_for(self, annotator: str) -> str:
        return hmac.new(self.server_secret, annotator.encode(), hashlib.sha256).hexdigest()

    def annotator_of(self, request: Request) -> str | None:
        return self.annotation_set.annotator_for(str(request.path_params.get("token", "")))

    async def start(self, request: Request) -> Response:
        who = self.annotator_of(request)
        if who is None:
            return PlainTextResponse("not found", status_code=404)
        done = self.pages.done(who)
        first_open = next((k for k, it in enumerate(self.items) if it["id"] not in done), len(self.items) - 1)
        return RedirectResponse(f"/a/{request.path_params['token']}/{first_open + 1}", status_code=303)

    async def item_page(self, request: Request) -> Response:
        who = self.annotator_of(request)
        index = request.path_params["index"]
        if who is None or not 1 <= index <= len(self.items):
            return PlainTextResponse("not found", status_code=404)
        if request.method == "POST":
            return await self.save(request, who, index)
        return self.render(request, who, index)

    def render(self, request: Request, who: str, index: int, error: str | None = None) -> Response:
        item = self.items[index - 1]
        mine = self.pages.done(who)
        nonce = secrets.token_urlsafe(16)
        html = self.page.render(
            item=item,
            index=index,
            total=len(self.items),
            n_done=sum(1 for it in self.items if it["id"] in mine),
            answer=mine.get(item["id"]),
            annotator=who,
            token=request.path_params["token"],
            csrf=self.csrf_for(who),
            nonce=nonce,
            error=error,
            **self.pages.context(item),
        )
        return HTMLResponse(html, status_code=400 if error else 200, headers=_headers(nonce))

    async def save(self, request: Request, who: str, index: int) -> Response:
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
            return PlainTextResponse("cross-origin request refused", status_code=403)
        body = await _form_body(request)
        if isinstance(body, Response):
            return body
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
        if not hmac.compare_digest(form.get("csrf", ""), self.csrf_for(who)):
            return PlainTextResponse("invalid form token (reload the page)", status_code=403)
        try:
            self.pages.save(who, self.items[index - 1], form)
        except ConfigError as exc:
            return self.render(request, who, index, error=str(exc))
        target = min(index + 1, len(self.items))
        return RedirectResponse(f"/a/{request.path_params['token']}/{target}", status_code=303)


def make_app(annotation_set: AnnotationSet, allowed_hosts: Sequence[str] = LOOPBACK_NAMES) -> Starlette:
    """The ASGI app serving ``annotation_set``: a judge check (answers go to ``SET/answers.sqlite``) or a
    translation rating (``SET/ratings.sqlite``), by ``annotation_set.kind``; requests whose ``Host`` is not one of
    ``allowed_hosts`` (without the port) are refused."""
    handlers = _Handlers(annotation_set)
    return Starlette(
        routes=[
            Route("/", _root),
            Route("/a/{token}", handlers.start),
            Route("/a/{token}/{index:int}", handlers.item_page, methods=["GET", "POST"]),
        ],
        # a Host the server was not asked to serve is refused (400): a DNS-rebinding page cannot reach it by name
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))],
    )


async def _form_body(request: Request) -> bytes | Response:
    """The body of a form post, read no further than ``MAX_FORM_BYTES``: a declared length over it is refused
    before anything is read (413), a body streamed without one is cut there (413), and anything but
    ``application/x-www-form-urlencoded`` is refused (415)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return PlainTextResponse("a form post only (application/x-www-form-urlencoded)", status_code=415)
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_FORM_BYTES):
        return _too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            return _too_large()
    return bytes(body)


def _too_large() -> Response:
    # "Connection: close": the server hangs up after the answer instead of reading the rest of the body to keep the
    # connection alive (a 300 MB post is not received in full)
    return PlainTextResponse("form too large", status_code=413, headers={"Connection": "close"})


def _csrf_secret(path: Path) -> bytes:
    """The key of the form tokens, kept in the set folder (mode 0600) so that a restarted server accepts the
    forms annotators still have open."""
    if not path.is_file():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    return path.read_bytes()


def check_host(host: str, allow_remote: bool) -> str | None:
    """``None`` for a loopback address; a warning when ``allow_remote`` permits another one.

    Raises:
        ConfigError: a non-loopback address without ``allow_remote``.
    """
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        return None
    if not allow_remote:
        raise ConfigError(f"--host {host} is reachable from other machines: pass --allow-remote to do that")
    return (
        f"warning: serving on {host}: anyone who can reach this address and holds a token can annotate; "
        "put it behind HTTPS"
    )


def annotator_links(annotation_set: AnnotationSet, base: str) -> dict[str, str]:
    """Annotator → personal link."""
    return {name: f"{base}/a/{token}" for name, token in annotation_set.annotators.items()}


def serve(annotation_set: AnnotationSet, host: str = "127.0.0.1", port: int = 8700) -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    if host in ("0.0.0.0", "::"):  # every interface (--allow-remote): the names it is reached by are unknown here
        hosts: tuple[str, ...] = ("*",)
    else:
        hosts = (host, *LOOPBACK_NAMES) if check_host(host, allow_remote=True) is None else (host,)
    uvicorn.run(make_app(annotation_set, hosts), host=host, port=port, log_level="warning")
