#!/usr/bin/env python3
'''Checks that each target under Sources/ declares exactly the targets of the package it imports, and that none but
the umbrella imports the umbrella (the library product's target, `MovieSearch`), so that Package.swift's graph is
the graph the code has.

    Scripts/check-target-imports.py     # exit 1, with one line per problem, when a target's imports and its
                                        # dependencies differ

`swift build --explicit-target-dependency-import-check error` (which .ci/run also runs) rejects an import of a target
that is not among the importer's dependencies, direct or not; it accepts a layer reached through another one (a
target importing `MovieSearchHTTP` while declaring only `MovieSearchServer`, which depends on it), and says nothing
of a dependency declared but never imported. This script checks both, from `swift package dump-package` and the
import lines of each target's Swift files (every `import`, conditional ones included). The test targets and
`TestSupport` (under Tests/) are left out: they may import the umbrella.
'''
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPORT = re.compile(
    r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+'
    r'(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)')


def dependency_name(dependency):
    """The target a dependency of the manifest names (`byName` or `target`); `None` for a product."""
    for kind in ("byName", "target"):
        if kind in dependency:
            return dependency[kind][0]
    return None


def imported_modules(folder):
    """Every module a Swift file under `folder` imports."""
    modules = set()
    for directory, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(directory, name), encoding="utf-8") as source:
                    for line in source:
                        match = IMPORT.match(line)
                        if match:
                            modules.add(match.group(1))
    return modules


def main():
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in manifest["targets"]}
    umbrellas = {name for product in manifest["products"] if "library" in product["type"]
                 for name in product["targets"]}
    problems = []
    checked = 0
    for name, target in targets.items():
        path = target.get("path") or os.path.join("Sources", name)
        if target["type"] not in ("regular", "executable") or not path.startswith("Sources"):
            continue
        checked += 1
        declared = {dependency_name(dependency) for dependency in target["dependencies"]} - {None}
        imported = imported_modules(os.path.join(ROOT, path)) & set(targets)
        for module in sorted(imported - declared):
            problems.append(f"{name} imports {module} without declaring it a dependency")
        for module in sorted(declared - imported):
            problems.append(f"{name} declares a dependency on {module}, which none of its files imports")
        if name not in umbrellas:
            for module in sorted(imported & umbrellas):
                problems.append(f"{name} imports the umbrella {module}: import the layers it uses instead")
    for problem in problems:
        print(f"check-target-imports: {problem}")
    if problems:
        sys.exit(1)
    print(f"check-target-imports: {checked} targets under Sources/ import exactly the targets they declare")


if __name__ == "__main__":
    main()
