"""Static walk (ast) of where the run configuration travels, from a root function (default engine/run.py:evaluate).

A *hand-on* is a call site where the tracked object crosses into another project function:
  - as an argument (positional or keyword)                 -> kind "arg"
  - as the receiver of a project method (config.uses(...)) -> kind "method" (self = config)
Property reads that run project code (config.spec, config.judge_model, ...) are listed as kind "property"
(counted apart: no frame is handed the object, but code in config/ runs).
Each call site is counted once (static).  A hand-on "returns" when it enters a module already on the path from the
root (other than the caller's own module); it goes "back up" when the callee's layer ranks above the caller's in
tests/test_structure.py LAYERS (config/ between engine and tasks, where its imports put it).
The context a task is built from is followed too, while it carries the config (``TaskContext._config``).
Usage: python tests/config_walk.py [SRC] [module:function[:var] ...]  (the acceptance guard of issue 63,
``tests/test_structure.py::test_config_hand_ons``, runs it; copied from the design study's measurement script)
"""
from __future__ import annotations

import ast
import sys
from collections import Counter, defaultdict
from pathlib import Path

SRC = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "src"
ROOTS = sys.argv[2:] or ["xlingmed.engine.run:evaluate"]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_structure import LAYERS  # noqa: E402 - the one definition of "up"

RANK = {p: float(k) for k, layer in enumerate(LAYERS) for p in layer}
CONFIG_CLASS = ("xlingmed.config.run_config", "RunConfig")

modules: dict[str, ast.Module] = {}
for path in sorted((SRC / "xlingmed").rglob("*.py")):
    name = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    modules[name] = ast.parse(path.read_text(encoding="utf-8"))


def rank(mod: str) -> float:
    parts = mod.split(".")
    return RANK.get(parts[1] if len(parts) > 1 else "", 99.0)


defs: dict[tuple[str, str], ast.AST] = {}  # (module, "f" | "Class.m" | "Class") -> node
imports: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)  # module -> local -> (module, name)
for mod, tree in modules.items():
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            defs[(mod, node.name)] = node
        elif isinstance(node, ast.ClassDef):
            defs[(mod, node.name)] = node
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                    defs[(mod, f"{node.name}.{sub.name}")] = sub
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                imports[mod][a.asname or a.name] = (node.module, a.name)


def resolve(mod: str, name: str, depth: int = 0) -> tuple[str, str] | None:
    if (mod, name) in defs:
        return (mod, name)
    if depth < 6 and name in imports.get(mod, {}):
        m, n = imports[mod][name]
        return resolve(m, n, depth + 1)
    return None


TRACKED = CONFIG_CLASS
CONFIG_METHODS = {k[1].split(".", 1)[1] for k in defs if k[0] == CONFIG_CLASS[0] and k[1].startswith("RunConfig.")}
PROPERTIES = set()
for key, node in defs.items():
    if key[0] == CONFIG_CLASS[0] and key[1].startswith("RunConfig.") and any(
            ast.unparse(d) == "property" for d in getattr(node, "decorator_list", [])):
        PROPERTIES.add(key[1].split(".", 1)[1])


def params(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ClassDef):  # a constructor: its __init__, else its fields in order (dataclass)
        init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is not None:
            return [a.arg for a in init.args.args][1:] + [a.arg for a in init.args.kwonlyargs]
        return [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    a = node.args
    return [x.arg for x in a.posonlyargs + a.args] + [x.arg for x in a.kwonlyargs]


def where(key: tuple[str, str]) -> str:
    node = defs[key]
    return f"{key[0].removeprefix('xlingmed.').replace('.', '/')}.py:{node.lineno} {key[1]}"


edges: list[dict] = []
seen_sites: set[tuple[int, str]] = set()
entered: list[str] = []  # modules the object has been in, in travel order
visited: set[tuple[tuple[str, str], str]] = set()


def walk(key: tuple[str, str], tracked: set[str], path: list[str]) -> None:
    if (key, ",".join(sorted(tracked))) in visited:
        return
    visited.add((key, ",".join(sorted(tracked))))
    mod, qual = key
    node = defs[key]
    cls = qual.split(".")[0] if "." in qual else None
    names = set(tracked)
    for sub in ast.walk(node):  # aliases: x = config
        if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Name) and sub.value.id in names:
            names |= {t.id for t in sub.targets if isinstance(t, ast.Name)}
    entered.append(mod)
    for sub in sorted((n for n in ast.walk(node) if hasattr(n, "lineno")), key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in names \
                and sub.attr in PROPERTIES:
            site = (id(sub), "property")
            if site not in seen_sites:
                seen_sites.add(site)
                edges.append(dict(kind="property", src=key, dst=(CONFIG_CLASS[0], f"RunConfig.{sub.attr}"),
                                  line=sub.lineno, path=path))
        if not isinstance(sub, ast.Call):
            continue
        f = sub.func
        target = None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names \
                and f.attr in CONFIG_METHODS and f.attr not in PROPERTIES:
            target, param, kind = (TRACKED[0], f"{TRACKED[1]}.{f.attr}"), "self", "method"
        else:
            callee = None
            if isinstance(f, ast.Name):
                callee = resolve(mod, f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" and cls:
                callee = (mod, f"{cls}.{f.attr}") if (mod, f"{cls}.{f.attr}") in defs else None
            if callee is None:
                continue
            ps = params(defs[callee])
            if isinstance(defs[callee], ast.FunctionDef | ast.AsyncFunctionDef) and "." in callee[1]:
                ps = ps[1:]  # a method called through self / a class
            param = None
            for i, a in enumerate(sub.args):
                if isinstance(a, ast.Name) and a.id in names:
                    param = ps[i] if i < len(ps) else f"*{i}"
            for kw in sub.keywords:
                if isinstance(kw.value, ast.Name) and kw.value.id in names:
                    param = kw.arg
            if param is None:
                continue
            target, kind = callee, "arg"
        site = (id(sub), kind)
        if site in seen_sites:
            continue
        seen_sites.add(site)
        edges.append(dict(kind=kind, src=key, dst=target, line=sub.lineno, path=path, param=param,
                          back=target[0] != mod and target[0] in entered))
        if isinstance(defs[target], ast.FunctionDef | ast.AsyncFunctionDef):
            walk(target, {param}, [*path, target[0]])


for root in ROOTS:
    m, fn, *var = root.split(":")
    walk((m, fn), {var[0] if var else "config"}, [m])

hand = [e for e in edges if e["kind"] in ("arg", "method")]
print(f"roots: {', '.join(ROOTS)}\n")
print(f"{'kind':8} {'from':58} -> to")
returns = ups = 0
mods = set()
for e in edges:
    src_mod, dst_mod = e["src"][0], e["dst"][0]
    back = e.get("back", False)
    up = rank(dst_mod) < rank(src_mod)
    if e["kind"] != "property":
        returns += back
        ups += up
        mods |= {src_mod, dst_mod}
    handed = e["kind"] != "property"
    flags = ("  RETURNS" if back and handed else "") + ("  UP" if up and handed else "")
    s = where(e["src"]).split(" ")[0].rsplit(":", 1)[0] + f":{e['line']} {e['src'][1]}"
    print(f"{e['kind']:8} {s:58} -> {where(e['dst'])}{flags}")
print(f"\nhanded on (arg + method): {len(hand)}  [arg {sum(e['kind'] == 'arg' for e in edges)}, "
      f"method {sum(e['kind'] == 'method' for e in edges)}]; property reads running config code: "
      f"{sum(e['kind'] == 'property' for e in edges)}")
print(f"modules the config passes through: {len(mods)}: {', '.join(sorted(m.removeprefix('xlingmed.') for m in mods))}")
print(f"hand-ons into a module already left on the path: {returns}; back up a layer: {ups}")
sites = Counter(e["dst"][1] for e in edges if e["dst"][0] == CONFIG_CLASS[0])
print("static call sites per RunConfig member:", dict(sorted(sites.items())))

# --- the config carried inside TaskContext (RunConfig.task_context puts it in ``_config``): each registered task's
# builder and ``resolved`` hook receives it; where they hand the context on is followed the same way.
print("\n# carried in TaskContext._config (context handed to the task builders and resolved hooks)")
carried_edges_before = len(edges)


def _hook_targets(mod: str, hook: ast.Lambda) -> list[tuple[tuple[str, str], str, str]]:
    """The functions a lambda ``resolved`` hook hands ``context`` to, with the parameter that receives it."""
    out = []
    for sub in ast.walk(hook.body):
        names = [a.id for a in sub.args if isinstance(a, ast.Name)] if isinstance(sub, ast.Call) else []
        if "context" in names and isinstance(sub.func, ast.Name) and (c := resolve(mod, sub.func.id)):
            out.append((c, "resolved_protocol", params(defs[c])[names.index("context")]))
    return out


spec_targets: list[tuple[tuple[str, str], str, str]] = []
context_class = defs.get(("xlingmed.tasks.context", "TaskContext"))
carrying = context_class is not None and "_config" in params(context_class)
for mod, tree in modules.items() if carrying else ():
    if not mod.startswith("xlingmed.tasks.") or mod.count(".") != 2:
        continue
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and ast.unparse(call.func) == "TaskSpec":
            build = call.args[2] if len(call.args) > 2 else next((k.value for k in call.keywords if k.arg == "build"),
                                                                 None)
            if isinstance(build, ast.Name) and (b := resolve(mod, build.id)):
                spec_targets.append((b, "context", "build_tasks"))
            for k in call.keywords:
                if k.arg == "resolved" and isinstance(k.value, ast.Lambda):
                    spec_targets += _hook_targets(mod, k.value)
TRACKED = ("xlingmed.tasks.context", "TaskContext")
CONFIG_METHODS = {k[1].split(".", 1)[1] for k in defs if k[0] == TRACKED[0] and k[1].startswith("TaskContext.")}
PROPERTIES = set()
for spec in spec_targets:
    target = spec[0]
    if spec[1] == "resolved_protocol":
        src, param = ("xlingmed.engine.settings", "resolved_protocol"), spec[2]
    else:
        src, param = ("xlingmed.engine.plan", "build_tasks"), spec[1]
    edges.append(dict(kind="carried", src=src, dst=target, line=0, path=[]))
    walk(target, {param}, ["xlingmed.engine.plan", target[0]])
carried = edges[carried_edges_before:]
for e in carried:
    print(f"{e['kind']:8} {e['src'][0]}:{e['src'][1]} -> {where(e['dst'])}")
print(f"context (holding the config) handed on: {len(carried)} (to {len(spec_targets)} builders/hooks, then "
      f"{len(carried) - len(spec_targets)} onward), through {len({e['dst'][0] for e in carried})} modules")
