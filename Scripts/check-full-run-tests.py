#!/usr/bin/env python3
"""Checks that every test a plain `swift test` skips as a full run's check is run by one of .ci/run's full steps.

A test that begins with `try TestScale.requireFullRun(...)` runs only with MOVIESEARCH_FULL_TESTS set, which .ci/run
sets in its full steps, each of which runs `swift test --filter REGEX`. A test missing from every such filter would
run nowhere: this script fails naming it.

Usage: Scripts/check-full-run-tests.py REGEX...   (the full steps' --filter arguments)
"""
import pathlib
import re
import sys


def full_run_tests(root):
    """Yields "Module.Class/testName" for each test that starts with TestScale.requireFullRun."""
    for path in sorted((root / "Tests").rglob("*.swift")):
        module = path.relative_to(root / "Tests").parts[0]
        owner, test = None, None
        for line in path.read_text(encoding="utf-8").splitlines():
            declared = re.match(r"\s*(?:final\s+)?(?:class|extension)\s+(\w+)", line)
            if declared:
                owner = declared.group(1)
            function = re.match(r"\s*(?:override\s+)?func\s+(test\w*)\s*\(", line)
            if function:
                test = function.group(1)
            if "TestScale.requireFullRun(" in line and "func " not in line:
                if owner is None or test is None:
                    sys.exit(f"{path}: a requireFullRun outside a test method")
                yield f"{module}.{owner}/{test}"


def main():
    filters = [re.compile(argument) for argument in sys.argv[1:]]
    if not filters:
        sys.exit(__doc__.strip().splitlines()[-1])
    root = pathlib.Path(__file__).resolve().parent.parent
    tests = list(full_run_tests(root))
    missing = [test for test in tests if not any(f.search(test) for f in filters)]
    for test in missing:
        print(f"check-full-run-tests: {test} skips outside a full run, but no full step of .ci/run runs it",
              file=sys.stderr)
    if missing:
        sys.exit(1)
    print(f"check-full-run-tests: the full steps run all {len(tests)} full-run tests")


if __name__ == "__main__":
    main()
