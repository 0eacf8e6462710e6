#!/usr/bin/env python3
"""Moves every package a host does not use under dev.agentloop.internal.

Re-runnable: run it at the root of any checkout or branch of AgentLoop and it does what is left to do
(moves the files still in the old packages, rewrites the names that still point there); on a checkout that
is already moved it changes nothing. What stays outside: dev.agentloop.api (what a host calls),
dev.agentloop.spi (what a host implements), dev.agentloop.autoconfigure (what the starter names), and the
packages that only tests, the demo and the examples have. The dated history (CHANGELOG.md,
docs/benchmarks/) keeps the names of its day.

    python3 tools/refactor/move-to-internal.py
"""
import os
import re
import subprocess
import sys

INTERNAL = ["agent", "async", "cockpit", "config", "history", "llm", "resilience", "resume", "review",
            "security", "telemetry", "tool", "trace", "web", "worker"]
SOURCE_ROOTS = ["src/main/java", "src/test/java", "src/main/resources", "src/test/resources",
                "modules/demo/src/main/java", "modules/demo/src/test/java",
                "modules/demo/src/main/resources", "modules/demo/src/test/resources"]
TEXT = (".java", ".yaml", ".yml", ".properties", ".json", ".imports", ".factories", ".md", ".xml", ".mjs",
        ".js", ".sh", ".sql", ".txt", ".form", ".bpmn", "CockpitPlugin", "run")
KEEP_HISTORY = ("CHANGELOG.md", "docs/benchmarks/", "tools/refactor/")

NAMES = re.compile(r"\bdev\.agentloop\.(" + "|".join(INTERNAL) + r")\b(?!-)")
PATHS = re.compile(r"\bdev/agentloop/(" + "|".join(INTERNAL) + r")\b(?=/|\"|'|\s|$)")


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def move_files():
    moved = 0
    for root in SOURCE_ROOTS:
        for package in INTERNAL:
            old = os.path.join(root, "dev/agentloop", package)
            if not os.path.isdir(old):
                continue
            for directory, _, files in os.walk(old):
                for name in files:
                    source = os.path.join(directory, name)
                    target = os.path.join(root, "dev/agentloop/internal", os.path.relpath(source, os.path.join(root, "dev/agentloop")))
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    if source in tracked:
                        git("mv", source, target)
                    else:
                        os.rename(source, target)
                    moved += 1
            for directory, _, _ in sorted(os.walk(old, topdown=False), key=lambda w: -len(w[0])):
                if not os.listdir(directory):
                    os.rmdir(directory)
    return moved


def rewrite_names():
    changed = 0
    for path in git("ls-files").splitlines():
        if path.startswith(KEEP_HISTORY) or not path.endswith(TEXT) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            try:
                text = f.read()
            except UnicodeDecodeError:
                continue
        new = PATHS.sub(r"dev/agentloop/internal/\1", NAMES.sub(r"dev.agentloop.internal.\1", text))
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            changed += 1
    return changed


if __name__ == "__main__":
    if not os.path.isdir(".git") and not os.path.isfile(".git"):
        sys.exit("run me at the root of an AgentLoop checkout")
    tracked = set(git("ls-files").splitlines())
    files = move_files()
    names = rewrite_names()
    print(f"moved {files} files, rewrote names in {names} files")
