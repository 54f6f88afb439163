"""A compile database of every C file of one corpus package's configured tree,
with the recipe's flags: a rule is checked for false alarms on the whole
package, not only on the defect's file (the four LLP64 packages for PK303,
the LP64 ones for PK103).

    python bench/scan/real_bugs/whole_tree.py less-mingw [--under DIR]...
    portkit scan -p CACHE/real-bugs/trees/less-mingw --from LP64 --to LLP64 --allow-incomplete

The tree is fetched and configured as measure.py does (once); the database
goes to CACHE/real-bugs/trees/PACKAGE/ and its path is printed. Tests and
samples (by their file's or folder's name) are left out: they need their
harness's flags, and are not what the package ships; so are hidden folders
(quilt's .pc/ keeps the unpatched copies of patched files).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import measure  # noqa: E402  (the recipe, fetching, configuring and the database's format)

NOT_SHIPPED = frozenset({"test", "tests", "regress", "sample", "samples", "example", "examples", "contrib"})


def shipped(path: Path, tree: Path) -> bool:
    folders = path.relative_to(tree).parts[:-1]
    hidden = any(f.startswith(".") for f in folders)
    return "test" not in path.name.lower() and not hidden and not NOT_SHIPPED.intersection(f.lower() for f in folders)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("package", help="a package of the recipe (bench/scan/real_bugs/corpus.toml)")
    parser.add_argument("--under", action="append", default=[], help="only C files below this folder of the tree")
    parser.add_argument("--cache", type=Path, default=measure.scanbench.cache_dir() / "real-bugs")
    args = parser.parse_args()
    try:
        recipe = measure.corpus_recipe.load()
    except measure.corpus_recipe.RecipeError as err:
        sys.exit(f"whole-tree: {err}")
    package = recipe.packages.get(args.package)
    if package is None:
        sys.exit(f"whole-tree: {args.package}: no such package in the recipe")
    try:
        tree = measure.fetch_pinned(package, args.cache / "src")
        measure.configure(package, tree)
    except (RuntimeError, OSError) as err:
        sys.exit(f"whole-tree: {args.package}: {err}")
    roots = [tree / under for under in args.under] or [tree]
    files = sorted({f for root in roots for f in root.rglob("*.c") if shipped(f, tree)})
    model = next((d.model for d in recipe.defects if d.package == package.name), "LP64")
    sources = [measure.scanbench.Source(f.resolve(), tree.resolve(), package.flags, model) for f in files]
    cases = [measure.Case(None, source) for source in sources]  # type: ignore[arg-type]  # no defect: the database
    print(measure.compile_database(cases, args.cache / "trees" / package.name).parent)


if __name__ == "__main__":
    main()
