"""What Scripts/compare's modules share: where things live, the progress log, and running a command with its wall time
and peak memory.

The anchors (fts5.py, tantivy_anchor.py, reference.py) do not import this: they run in their own processes, driven
by compare through `run`; what they share is in common.py.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
SCRIPTS = os.path.join(ROOT, "Scripts")
BENCH = os.path.join(SCRIPTS, "bench")
WORK = os.path.join(ROOT, ".build-compare")


def say(message):
    """A progress line on standard error (standard output carries the report)."""
    print(f"compare: {message}", file=sys.stderr, flush=True)


class Failure(Exception):
    """A step that failed (a command that could not run or exited non-zero, an output without the expected JSON):
    the run goes on without that engine or catalog, and the report says why."""


# Peak memory of a child process: Linux carries a process's peak RSS (ru_maxrss) across fork and exec, so a child
# of this script would report this script's own peak. A small launcher forks the command and reports its
# ru_maxrss, which then starts from the launcher's few megabytes at most, and the command's wall time (fork to
# exit, without the launcher's own start-up).
LAUNCHER = """
import os, sys, time
rss_path, command = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(command[0], command)
    except OSError as error:
        os.write(2, f"cannot run {command[0]}: {error}\\n".encode())
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - started
with open(rss_path, "w") as out:
    out.write(f"{usage.ru_maxrss * (1 if sys.platform == 'darwin' else 1024)} {elapsed}")
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def run(command, stdin_path=None, stdout_path=None, cwd=ROOT, env=None):
    """Runs a command; returns (stdout text or None, its wall seconds, its peak RSS bytes).
    Raises Failure with its standard error when it fails."""
    rss_file = tempfile.NamedTemporaryFile(delete=False)
    rss_file.close()
    command = [sys.executable, "-S", "-c", LAUNCHER, rss_file.name, *command]
    try:
        return _run(command, stdin_path, stdout_path, cwd, env, rss_file.name)
    finally:
        os.remove(rss_file.name)


def _run(command, stdin_path, stdout_path, cwd, env, rss_path):
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as captured:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        stdout = open(stdout_path, "wb") if stdout_path else captured
        try:
            try:
                process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=err, cwd=cwd, env=env)
            except OSError as error:
                raise Failure(f"cannot run `{command[0]}`: {error}")
            process.wait()
        finally:
            if stdin_path:
                stdin.close()
            if stdout_path:
                stdout.close()
        err.seek(0)
        errors = err.read().decode("utf-8", "replace").strip()
        if process.returncode != 0:
            shown = " ".join(os.path.relpath(part, ROOT) if part.startswith(ROOT) else part for part in command[5:])
            raise Failure(f"`{shown}` exited with {process.returncode}"
                          + (f": {errors[-3000:]}" if errors else ""))
        captured.seek(0)
        text = None if stdout_path else captured.read().decode("utf-8")
        with open(rss_path) as file:
            rss, elapsed = file.read().split()
        return text, float(elapsed), int(rss)


def last_json(text):
    """The last line of `text` that holds a JSON object: the figures an engine prints after any progress lines."""
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise Failure(f"no JSON object in the output:\n{text[-2000:]}")
