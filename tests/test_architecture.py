"""Import contracts: the pure cores import no Django, and every arrow points down.

Tiers, lowest first (docs/architecture.md): the pure rules engine; ``common`` (the domain
error and the API plumbing every app shares); ``clubs`` (who owns everything owned);
``tournaments``; ``scoring``; the six independent siblings ``archive``, ``seasons``,
``teams``, ``hall``, ``cashbox``, ``fees``; ``evenings`` (it settles with ``cashbox``);
``documents``; ``config`` (settings and URL roots)
on top. A module may import its own app and the tiers below it, never a tier above nor a
sibling of its own tier, not even inside a function. The source is parsed, not imported, so
a lazy import counts like any other. Inside an app the modules import no circle. A template
of an app names in ``{% url %}`` only the namespaces that the app itself may import.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Lowest first. The apps of one tier are siblings: neither imports the other.
TIERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("common",),
    ("clubs",),
    ("tournaments",),
    ("scoring",),
    ("archive", "seasons", "teams", "hall", "cashbox", "fees"),
    ("evenings",),
    ("documents",),
    ("config",),
)
LAYERS = tuple(app for tier in TIERS for app in tier)
TIER = {app: number for number, tier in enumerate(TIERS) for app in tier}

#: Pure cores: the standard library and their own package only.
PURE_CORES = {
    "rules": ("rules",),
    "tournaments/seating": ("tournaments.seating",),
    "scoring/ranking.py": (),
    "scoring/totals.py": (),
    "scoring/clock.py": (),
    "scoring/handover.py": (),
    "scoring/statistics.py": (),
    "seasons/ranking.py": (),
    "seasons/ddv/check.py": (),
    # Team competitions reuse the seating core (itself pure) for schedules and tables.
    "teams/schedule.py": ("tournaments.seating",),
    "teams/knockout.py": (),
    # The individual ranking sorts with the tournaments' standings core.
    "teams/individual.py": ("scoring.ranking",),
    "teams/scoring.py": (),
    "teams/season_end.py": (),
    "teams/seating.py": ("tournaments.seating",),
    "cashbox/settlement.py": (),
    "cashbox/money.py": (),
    "fees/payouts.py": (),
    # The evening's core scores quick entries and replays Bock with the rules engine.
    "evenings/core.py": ("rules",),
}


def _modules(path: str, root: Path = ROOT) -> Iterator[Path]:
    target = root / path
    if target.is_file():
        yield target
        return
    yield from (p for p in sorted(target.rglob("*.py")) if "migrations" not in p.parts)


def _imports(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, wherever it stands."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield node.lineno, name


def _app(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in TIER else None


def may_use(app: str, other: str) -> bool:
    """Whether ``app`` may import ``other`` (or name its URLs): itself or a lower tier."""
    return other == app or TIER[other] < TIER[app]


def test_the_contract_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The checker itself: an import inside a function and a relative import are found."""
    sample = tmp_path / "tournaments" / "services" / "probe.py"
    sample.parent.mkdir(parents=True)
    sample.write_text("def f():\n    from scoring.standings import x\nfrom ..models import T\n")
    found = [name for _, name in _imports(sample, tmp_path)]
    assert sorted(found) == ["scoring.standings", "tournaments.models"]


@pytest.mark.parametrize("core", sorted(PURE_CORES))
def test_pure_cores_import_only_the_standard_library(core: str) -> None:
    allowed = PURE_CORES[core]
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in _modules(core)
        for line, name in _imports(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "__future__"
        and not any(name == own or name.startswith(own + ".") for own in allowed)
    ]
    assert not wrong, "\n".join(wrong)


def _wrong_imports(package: str, root: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(root)}:{line} imports {name} "
        f"({other} is {'a sibling of' if TIER[other] == TIER[package] else 'above'} {package})"
        for path in _modules(package, root)
        for line, name in _imports(path, root)
        if (other := _app(name)) is not None and not may_use(package, other)
    ]


@pytest.mark.parametrize("package", LAYERS)
def test_imports_point_down(package: str) -> None:
    wrong = _wrong_imports(package)
    assert not wrong, "\n".join(wrong)


def test_siblings_are_independent(tmp_path: Path) -> None:
    """The checker itself: a sibling importing a sibling fails like an upward import."""
    probe = tmp_path / "teams" / "probe.py"
    probe.parent.mkdir()
    probe.write_text("from seasons.standings import x\nfrom scoring.models import Game\n")
    assert _wrong_imports("teams", tmp_path) == [
        "teams/probe.py:1 imports seasons.standings (seasons is a sibling of teams)"
    ]


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module → the modules of the same app it imports (``from a import b`` is the module
    ``a.b`` when there is one), lazy imports included."""
    modules = {_module_name(path, root): path for path in _modules(package, root)}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                package_of = name if path.name == "__init__.py" else name.rpartition(".")[0]
                if node.level:
                    parts = package_of.split(".")
                    base = parts[: len(parts) - node.level + 1]
                    source = ".".join([*base, node.module] if node.module else base)
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                    for alias in node.names
                ]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while (top := stack.pop()) != module:
                part.append(top)
            part.append(module)
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


@pytest.mark.parametrize("package", LAYERS)
def test_no_import_circles_inside_an_app(package: str) -> None:
    circles = _circles(_import_graph(package))
    assert not circles, "\n".join(" ↔ ".join(circle) for circle in circles)


def test_the_circle_check_sees_a_lazy_circle(tmp_path: Path) -> None:
    """The checker itself: services importing tasks inside a function, tasks importing
    services at the top, is a circle (as ``seasons`` had one)."""
    app = tmp_path / "seasons"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "services.py").write_text("def f():\n    from seasons.tasks import g\n")
    (app / "tasks.py").write_text("from . import services\n")
    assert _circles(_import_graph("seasons", tmp_path)) == [["seasons.services", "seasons.tasks"]]


URL_TAG = re.compile(r"""\{%\s*url\s+["']([a-z_]+):""")

#: Templates of a lower app that still name an upper app's URLs, each with its reason: a
#: form or an embedded fragment, never a plain link (upper apps contribute links to link
#: places, ``common.links``). Nothing may be added; an entry fixed must be removed.
TEMPLATE_LINKS_ALLOWED: dict[tuple[str, str], str] = {
    ("tournaments/organizer/series.html", "scoring"): (
        "its forms post to scoring's use cases (draw by standings, call time)"
    ),
    ("tournaments/series_public.html", "scoring"): "it embeds scoring's live clock (htmx)",
    ("tournaments/tournament_detail.html", "scoring"): "it embeds scoring's live clock (htmx)",
}


def _template_app(path: Path, root: Path) -> tuple[str, str]:
    """(the template's name, the app it belongs to): ``templates/<app>/…`` and
    ``<app>/templates/<app>/…``; the project's own templates (the frame, includes) are the
    top tier's."""
    parts = path.relative_to(root).parts
    name = "/".join(parts[parts.index("templates") + 1 :])
    app = name.split("/")[0]
    return name, app if app in TIER else "config"


def _wrong_links(root: Path = ROOT) -> set[tuple[str, str]]:
    wrong = set()
    for path in sorted(root.glob("**/templates/**/*.html")):
        if ".venv" in path.parts:
            continue
        name, app = _template_app(path, root)
        for namespace in URL_TAG.findall(path.read_text()):
            if namespace in TIER and not may_use(app, namespace):
                wrong.add((name, namespace))
    return wrong


def test_templates_name_only_the_urls_of_their_layer_and_below() -> None:
    wrong = _wrong_links()
    allowed = {pair for pair, reason in TEMPLATE_LINKS_ALLOWED.items() if reason.strip()}
    assert not wrong - allowed, sorted(wrong - allowed)
    stale = set(TEMPLATE_LINKS_ALLOWED) - wrong
    assert not stale, f"remove from TEMPLATE_LINKS_ALLOWED: {sorted(stale)}"


def test_the_template_check_sees_an_upward_link(tmp_path: Path) -> None:
    page = tmp_path / "templates" / "scoring" / "page.html"
    page.parent.mkdir(parents=True)
    page.write_text("{% url 'tournaments:detail' t.slug %} {% url \"hall:show\" t.slug %}")
    assert _wrong_links(tmp_path) == {("scoring/page.html", "hall")}


def test_every_layer_is_type_checked_and_listed() -> None:
    """A new app is a layer here, in mypy's files (pyproject.toml) and in INSTALLED_APPS
    when it has models: forgetting one leaves it unchecked."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    checked = set(config["tool"]["mypy"]["files"])
    assert set(LAYERS) <= checked, sorted(set(LAYERS) - checked)
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages - {"bench", "tests", "docs"} <= set(LAYERS), sorted(packages - set(LAYERS))


def test_the_readme_layout_table_names_every_app() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = [name for name in LAYERS if f"| `{name}/` |" not in readme]
    assert not missing, f"README's layout table lacks {missing}"
