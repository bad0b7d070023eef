"""Import contracts: the pure cores import no Django, and every import arrow points down.

Layers, lowest first (docs/architecture.md): the pure rules engine; ``common`` (the domain
error and the API plumbing every app shares); the apps ``tournaments`` ← ``scoring`` ←
``seasons`` ← ``teams`` ← ``documents`` ← ``hall``; ``config`` (settings and URL roots) on
top. A module may import its own layer and the layers below it, never one above, not even
inside a function. The source is parsed, not imported, so a lazy import counts like any
other.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = (
    "rules",
    "common",
    "tournaments",
    "scoring",
    "archive",
    "seasons",
    "teams",
    "documents",
    "hall",
    "config",
)

#: Pure cores: the standard library and their own package only.
PURE_CORES = {
    "rules": ("rules",),
    "tournaments/seating": ("tournaments.seating",),
    "scoring/ranking.py": (),
    "scoring/totals.py": (),
    "scoring/clock.py": (),
    "scoring/statistics.py": (),
    "seasons/ranking.py": (),
    # Team competitions reuse the seating core (itself pure) for schedules and tables.
    "teams/schedule.py": ("tournaments.seating",),
    "teams/scoring.py": (),
    "teams/seating.py": ("tournaments.seating",),
}


def _modules(path: str) -> Iterator[Path]:
    target = ROOT / path
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


def _layer(module: str) -> int | None:
    top = module.split(".")[0]
    return LAYERS.index(top) if top in LAYERS else None


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


@pytest.mark.parametrize("package", LAYERS)
def test_imports_point_down(package: str) -> None:
    own = LAYERS.index(package)
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name} ({LAYERS[layer]} is above {package})"
        for path in _modules(package)
        for line, name in _imports(path)
        if (layer := _layer(name)) is not None and layer > own
    ]
    assert not wrong, "\n".join(wrong)


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
