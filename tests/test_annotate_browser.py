"""The annotation web app end to end in headless Chromium (Debian's package, driven by Playwright): two annotators
answer by keyboard and mouse, one disagrees; an Arabic item renders right-to-left; a model answer holding
``<script>`` is shown as text; another annotator's token is refused; a killed server loses no saved answer; the
agreement figures follow from what was clicked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import chromium, free_port
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.annotate import AnswerStore, agreement_table, build_annotation_set, load_annotation_set
from xlingmed.cli import app
from xlingmed.config import make_config
from xlingmed.runner import evaluate
from xlingmed.tasks.correctness.judge import OPTIONS

XSS = "<script>window.__pwned = 1</script><img src=x onerror=window.__pwned=2>"
ARABIC_Q = "ما هي الجرعة المعتادة من الباراسيتامول للبالغين؟"


def _server_reply(prompt: str, attempt: int) -> Reply:
    if "Answer 2 provides" in prompt:  # the judge: always "more comprehensive"
        return ok(f"The second answer adds detail. Reasoning done.\n{OPTIONS[2][1]}")
    if "insulin" in prompt:
        return ok(f"Insulin is a hormone. {XSS}")
    if "الباراسيتامول" in prompt:
        return ok("الجرعة المعتادة هي ٥٠٠ ملغ إلى ١ غرام كل ٤ إلى ٦ ساعات.")
    return ok("Ask your doctor.")


@pytest.fixture
def annotation_set(tmp_path: Path) -> Path:
    data = tmp_path / "items.csv"
    data.write_text(
        "id,lang,question,reference\n"
        "q1,en,What is insulin?,A hormone that lowers blood sugar.\n"
        "q2,en,What is aspirin?,A pain reliever.\n"
        f"q3,ar,{ARABIC_Q},٥٠٠ ملغ إلى ١ غرام كل ٤ إلى ٦ ساعات.\n",
        encoding="utf-8",
    )
    with FaultServer(_server_reply) as server:
        cfg = make_config(
            benchmark=f"qa:{data}", languages="en,ar", tasks="correctness", model="openai/m", base_url=server.url,
            cache=tmp_path / "c.sqlite", out=tmp_path / "run",
        )  # fmt: skip
        evaluate(cfg)
    build_annotation_set(tmp_path / "run", tmp_path / "set", fraction=1.0, seed=1, annotators=["ana", "ben"])
    return tmp_path / "set"


class Server:
    def __init__(self, set_dir: Path) -> None:
        self.set_dir, self.port = set_dir, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xlingmed.cli", "annotate", "serve", str(self.set_dir), "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        # polled until it answers: the deadline only stops a server that never starts, no outcome hangs on it
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=1)
            except urllib.error.HTTPError:
                return  # the root answers 404: the server is up
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("annotation server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


@pytest.fixture
def server(annotation_set: Path) -> Iterator[Server]:
    s = Server(annotation_set)
    s.start()
    yield s
    if s.proc is not None and s.proc.poll() is None:
        s.proc.terminate()
        s.proc.wait()


@pytest.mark.slow
def test_two_annotators_in_a_real_browser(server: Server, annotation_set: Path) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("no chromium executable (apt-get install chromium, or set XLINGMED_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    aset = load_annotation_set(annotation_set)
    n = len(aset.items)
    assert n == 3
    order = [it["id"] for it in aset.items]
    ana, ben = (f"{server.base}/a/{aset.annotators[x]}" for x in ("ana", "ben"))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

        # ana agrees with everything, by keyboard only
        page.goto(ana)
        assert page.url.endswith("/1") and page.locator("#progress").inner_text().startswith("1 of 3")
        for k in range(n):
            page.keyboard.press("a")
            with page.expect_navigation():
                page.keyboard.press("Enter")
            if k < n - 1:
                assert page.url.endswith(f"/{k + 2}"), (page.content()[:3000], errors)
        assert "3 answered" in page.locator("#progress").inner_text()

        # the Arabic item is right-to-left; the <script> answer is shown as text and never runs
        for k, item_id in enumerate(order, start=1):
            page.goto(f"{ana}/{k}")
            if item_id.endswith(":ar"):
                assert page.locator("#answer").get_attribute("dir") == "rtl"
                assert page.locator("#question").inner_text() == ARABIC_Q
                shot = page.screenshot(full_page=True)
                artifacts = os.environ.get("XLINGMED_TEST_ARTIFACTS")
                if artifacts:
                    Path(artifacts).mkdir(parents=True, exist_ok=True)
                    (Path(artifacts) / "annotate_arabic.png").write_bytes(shot)
            if item_id == "q1:en":
                assert XSS in page.locator("#answer").inner_text()
                assert page.evaluate("window.__pwned") is None
        assert not dialogs and not errors

        # the server is killed mid-session: nothing saved is lost, and ben resumes where he left off
        page.goto(ben)
        page.keyboard.press("a")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        server.kill()
        assert len(AnswerStore(annotation_set / "answers.sqlite").all()) == n + 1
        server.start()
        # on the form he still has open (item 2), written before the restart, ben disagrees with the mouse: label
        # and reason; it saves (the form-token key lives in the set folder)
        page.check("#disagree")
        page.select_option("#label", "contradictory")
        page.fill("#reason", "It states a dose the expert answer rules out.")
        with page.expect_navigation():
            page.click("#save")
        assert len(AnswerStore(annotation_set / "answers.sqlite").all()) == n + 2
        assert page.request.post(f"{ben}/3", form={"csrf": "", "verdict": "agree"}).status == 403  # no form token
        page.goto(ben)
        assert page.url.endswith("/3")  # resumes at his first unanswered item
        page.check("#agree")
        with page.expect_navigation():
            page.click("#save")
        page.goto(f"{ben}/2")
        assert "Saved: disagree (contradictory)" in page.locator("#saved").inner_text()

        # another annotator's form token, or a made-up link, gets nothing
        csrf_ben = page.locator("input[name=csrf]").get_attribute("value")
        resp = page.request.post(f"{ana}/2", form={"csrf": csrf_ben or "", "verdict": "agree"})
        assert resp.status == 403
        assert page.request.get(f"{server.base}/a/not-a-token").status == 404
        assert page.request.get(f"{ana}/99").status == 404
        browser.close()

    answers = AnswerStore(annotation_set / "answers.sqlite").all()
    assert len(answers) == 2 * n
    assert {(a.annotator, a.item): (a.verdict, a.label) for a in answers}[("ben", order[1])] == (
        "disagree",
        "contradictory",
    )
    assert all(a.verdict == "agree" for a in answers if a.annotator == "ana")  # ben's forged post changed nothing
    overall = agreement_table(aset, answers)[-1]
    assert (overall["n_items"], overall["n_annotators"], overall["n_no_majority"]) == (3, 2, 1)
    assert overall["judge_agreement"] == 1.0 and overall["unanimous"] == pytest.approx(2 / 3)
    assert overall["kappa_kind"] == "cohen"
    res = CliRunner().invoke(app, ["annotate", "export", str(annotation_set)], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "0.667" in res.output
    print(res.output)
    # and in the run's report, as one batch
    run_dir = annotation_set.parent / "run"
    res = CliRunner().invoke(app, ["report", str(run_dir), "--annotations", str(annotation_set), "--resamples", "200"])
    assert res.exit_code == 0, res.output
    html = (run_dir / "report" / "index.html").read_text(encoding="utf-8")
    assert "Judge–human agreement (XLingEval Table A7)" in html and "cohen" in html
    rows = (run_dir / "report" / "stats" / "judge_human_agreement.csv").read_text().splitlines()
    assert rows[0].startswith("batch,task,lang,n_items,n_annotators")
    assert rows[-1].startswith("set,correctness,all,3,2,6,1.0,1,0.666")


def test_remote_binding_needs_a_flag(annotation_set: Path) -> None:
    res = CliRunner().invoke(app, ["annotate", "serve", str(annotation_set), "--host", "0.0.0.0"])
    assert res.exit_code == 2 and "--allow-remote" in res.output


def _post(server: Server, path: str, body: bytes | Iterator[bytes], headers: dict[str, str]) -> int:
    """The status of one raw POST to the running server (http.client: the headers exactly as given)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers, encode_chunked=not isinstance(body, bytes))
        status = conn.getresponse().status
    except (ConnectionResetError, BrokenPipeError):  # the server refused and closed before reading the rest
        status = 413
    finally:
        conn.close()
    return status


def _flood(server: Server, path: str, chunked: bool) -> tuple[int | str, int]:
    """A 300 MB form post (declared, or chunked with no length) sent 1 MiB at a time until the server hangs up:
    the status it answered and the bytes the client could send."""
    import http.client

    total, chunk = 300 * 1024 * 1024, b"x" * (1024 * 1024)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.putrequest("POST", path, skip_accept_encoding=True)
    conn.putheader("Content-Type", "application/x-www-form-urlencoded")
    conn.putheader(*(("Transfer-Encoding", "chunked") if chunked else ("Content-Length", str(total))))
    conn.endheaders()
    sent = 0
    try:
        while sent < total:
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
            sent += len(chunk)
    except OSError:
        pass  # the server answered and closed: what it sent is still to be read
    try:
        return conn.getresponse().status, sent
    except OSError as exc:
        return type(exc).__name__, sent
    finally:
        conn.close()


def _rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return int(next(line for line in status if line.startswith("VmRSS:")).split()[1])


def test_a_300_mb_post_is_refused_before_it_is_received(server: Server, annotation_set: Path) -> None:
    """Issue 49's acceptance: a 300 MB post with a valid token is refused with 413, the server's memory grows by
    less than 10 MB, and it hangs up instead of reading the rest (``Connection: close``)."""
    assert server.proc is not None
    path = f"/a/{load_annotation_set(annotation_set).annotators['ana']}/1"
    before = _rss_kib(server.proc.pid)
    declared, streamed = _flood(server, path, chunked=False), _flood(server, path, chunked=True)
    grown_mib = (_rss_kib(server.proc.pid) - before) / 1024
    print(f"declared length: {declared}; chunked: {streamed}; server RSS grew {grown_mib:.1f} MiB")
    assert declared[0] == 413 and streamed[0] == 413
    assert declared[1] < 64 * 1024 * 1024 and streamed[1] < 64 * 1024 * 1024  # cut, not read to the end
    assert grown_mib < 10


def test_a_post_is_a_small_form_to_the_served_host(server: Server, annotation_set: Path) -> None:
    """Issue 49: the body is capped while it is read, the Host checked, and only a urlencoded form taken."""
    token = load_annotation_set(annotation_set).annotators["ana"]
    path = f"/a/{token}/1"
    form = {"Content-Type": "application/x-www-form-urlencoded", "Host": f"127.0.0.1:{server.port}"}
    # a declared length over the cap: refused before a byte of the body is read (none is sent)
    assert _post(server, path, b"", {**form, "Content-Length": str(300 * 1024 * 1024)}) == 413
    # a body streamed without a length (chunked) is cut at the cap: 64 chunks of 1 KiB never all arrive
    assert _post(server, path, iter([b"x" * 1024] * 64), form) == 413
    assert _post(server, path, b"csrf=x", {**form, "Content-Type": "application/json"}) == 415
    assert _post(server, path, b"csrf=x", {**form, "Host": "evil.example"}) == 400  # DNS rebinding
    assert _post(server, path, b"csrf=x", form) == 403  # the right shape reaches the form token check
    with urllib.request.urlopen(f"{server.base}/a/{token}/1", timeout=10) as page:  # a normal visit still works
        assert page.status == 200
