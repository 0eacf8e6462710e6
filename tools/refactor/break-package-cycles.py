#!/usr/bin/env python3
"""Moves the classes that made packages import each other both ways (re-runnable: a class already moved is skipped).

A feature split into sub-packages builds them on its parent package, so the parent cannot also wire them: the
Spring configuration of agent, llm, tool and trace moves up to internal.config, the package that wires the others
(a feature in one package keeps wiring itself, with its classes package-private); a step's
kind and JSON mapping move down to trace.step beside the records they describe; the refusal to delete an unfinished
run moves to the retention that raises it. Hand edits after the moves are in the commit that adds this script.
Run from the repository root: python3 tools/refactor/break-package-cycles.py
"""
import os, re, subprocess, sys

BASE = 'dev.agentloop.internal'
MOVES = [(f'{BASE}.{p}', c, f'{BASE}.config') for p, c in [
    ('agent', 'AgentConfiguration'), ('llm', 'LlmConfiguration'), ('tool', 'ToolConfiguration'),
    ('llm', 'ModelChoiceCheck'), ('tool', 'ToolSettings'), ('trace', 'TraceConfiguration')]] + [
    (f'{BASE}.trace', 'StepKind', f'{BASE}.trace.step'),
    (f'{BASE}.trace', 'StepJson', f'{BASE}.trace.step'),
    (f'{BASE}.trace', 'RunNotFinishedException', f'{BASE}.trace.retention'),
]
ROOTS = ['src', 'modules/demo/src', 'examples']


def java_files():
    for root in ROOTS:
        for d, _, files in os.walk(root):
            if '/target' in d or 'node_modules' in d:
                continue
            for f in files:
                if f.endswith('.java'):
                    yield os.path.join(d, f)


def path_of(pkg, cls, test=False):
    return os.path.join('src/test/java' if test else 'src/main/java', *pkg.split('.'), cls + '.java')


def classes_in(pkg):
    d = os.path.dirname(path_of(pkg, 'X'))
    return {f[:-5] for f in os.listdir(d) if f.endswith('.java') and f != 'package-info.java'} if os.path.isdir(d) else set()


def add_import(text, fqcn):
    line = f'import {fqcn};'
    if line in text:
        return text
    m = re.search(r'^package [\w.]+;\n', text, re.M)
    return text[:m.end()] + '\n' + line + '\n' + text[m.end():]


def uses(text, name):
    body = re.sub(r'^(package|import) .*$', '', text, flags=re.M)
    return re.search(r'(?<![\w.])' + re.escape(name) + r'\b', body) is not None


def move(old_pkg, cls, new_pkg):
    src = path_of(old_pkg, cls)
    if not os.path.exists(src):
        return
    siblings = classes_in(old_pkg) - {cls}
    dst = path_of(new_pkg, cls)
    subprocess.run(['git', 'mv', src, dst], check=True)
    text = open(dst).read().replace(f'package {old_pkg};', f'package {new_pkg};', 1)
    targets = classes_in(new_pkg)
    for s in sorted(siblings):
        if uses(text, s) and s not in targets:
            text = add_import(text, f'{old_pkg}.{s}')
    text = re.sub(r'^import ' + re.escape(new_pkg) + r'\.(\w+);\n', '', text, flags=re.M)
    open(dst, 'w').write(text)
    for f in java_files():
        t = open(f).read()
        n = re.sub(re.escape(f'{old_pkg}.{cls}') + r'\b', f'{new_pkg}.{cls}', t)
        pkg = re.search(r'^package ([\w.]+);', n, re.M)
        pkg = pkg.group(1) if pkg else ''
        if pkg == old_pkg and f != dst and uses(n, cls):
            n = add_import(n, f'{new_pkg}.{cls}')
        if pkg == new_pkg:
            n = n.replace(f'import {new_pkg}.{cls};\n', '')
        if n != t:
            open(f, 'w').write(n)


for old_pkg, cls, new_pkg in MOVES:
    move(old_pkg, cls, new_pkg)
print('moved; now: mvn -q -o -pl modules/agentloop test-compile', file=sys.stderr)
