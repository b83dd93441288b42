#!/usr/bin/env python3
"""Checks that the docs agree with the code (run by .ci/docs-check, after a debug build).

1. Commands. Every command in a fenced code block (bash, sh, console, text or none) of
   README.md and docs/*.md, and every inline code span that starts with a program's name or
   `cargo run`, that runs one of the workspace's programs, directly (`tns-bench match ...`,
   `target/release/tns-engine`) or through `cargo run [-p PACKAGE] [--bin PROGRAM] -- ...`:
   its subcommand is one the program lists, and each `--long` (and `-x` short) option it uses
   is in the `--help` of the program or of that subcommand. Placeholders (`POSITION`, `T`)
   are fine, since only the subcommand and the options are checked. `cargo ... -p X` names a
   package of the workspace.
2. Links. Every relative link in README.md, docs/*.md, CHANGELOG.md and crates/*/README.md
   reaches a file, and a `#anchor` a heading of that file (GitHub's anchors).
3. results.md. Every `##` or `###` section whose own body holds a table or a number (outside
   code, links and dates) is a measurement, and has a line that starts `Commit:` naming at
   least one commit (`abc1234`) and a line that starts `Command:` or a fenced bash block.
4. The README's layout table names every package under apps/ and crates/, and each program
   of the apps; every "Rust 1.NN" the docs name is the workspace's rust-version.

Prints each disagreement as FILE:LINE: what, and exits 1 if there is any.
"""

import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN_DIR = ROOT / (sys.argv[1] if len(sys.argv) > 1 else "target/debug")
PROGRAMS = [
    "tigers-and-sheep",
    "tns-bench",
    "tns-engine",
    "tns-tablebase",
    "tns-train",
    "tns-tune",
    "tns-heldout",
    "tns-calibrate",
    "tns-web",
]
# A package's program when `cargo run` names no --bin (its default-run, or its only one).
DEFAULT_BIN = {
    "tigers-and-sheep": "tigers-and-sheep",
    "tns-bench": "tns-bench",
    "tns-engine": "tns-engine",
    "tns-tablebase-cli": "tns-tablebase",
    "tns-trainer": "tns-train",
    "tns-web": "tns-web",
}
# The workspace's default member: what `cargo run` without -p runs.
DEFAULT_PACKAGE = "tigers-and-sheep"
# Words that may come before a program on a line without being part of its command.
WRAPPERS = {"time", "/usr/bin/time", "-v", "nice", "env", "exec", "sudo"}

errors = []
checked = []


def error(path, line, what):
    errors.append(f"{path.relative_to(ROOT)}:{line}: {what}")


def packages():
    """Each workspace package's name, by its folder."""
    found = {}
    for toml in sorted(ROOT.glob("*/*/Cargo.toml")):
        if toml.parts[-3] not in ("apps", "crates"):
            continue
        m = re.search(r'^name\s*=\s*"([^"]+)"', toml.read_text(), re.M)
        found[str(toml.parent.relative_to(ROOT))] = m.group(1)
    return found


PACKAGES = packages()


@cache
def help_of(program, subcommand=None):
    """The options, their value counts and the subcommands of a program's --help."""
    args = [str(BIN_DIR / program)] + ([subcommand] if subcommand else []) + ["--help"]
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=60).stdout
    except FileNotFoundError:
        sys.exit(f"docs-check: {args[0]} is not built (cargo build --workspace --bins)")
    options = {}
    for m in re.finditer(r"^\s+(?:(-[A-Za-z]), )?(--[a-z][\w-]*)((?: [<\[][^>\]]+[>\]])*)", out, re.M):
        short, long, values = m.groups()
        count = values.count("<")
        options[long] = count
        if short:
            options[short] = count
    for m in re.finditer(r"^\s+(-[A-Za-z])((?: <[^>]+>)*)\s{2}", out, re.M):
        options.setdefault(m.group(1), m.group(2).count("<"))
    for alias in re.findall(r"\[alias(?:es)?: ([^\]]+)\]", out):
        for a in re.findall(r"--[a-z][\w-]*", alias):
            options[a] = 1
    subcommands = set()
    if "\nCommands:\n" in out:
        block = out.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
        subcommands = {line.split()[0] for line in block.splitlines() if line.strip()}
    return options, subcommands


def check_args(path, line, program, args, text):
    """Checks one program's arguments against its help."""
    checked.append(program)
    if program == "tns-engine":
        if args:
            error(path, line, f"tns-engine takes no arguments: `{text}`")
        return
    options, subcommands = help_of(program)
    sub = None
    rest = list(args)
    if subcommands:
        while rest:
            token = rest.pop(0)
            if token.startswith("-"):
                name = token.split("=", 1)[0]
                if name not in options:
                    error(path, line, f"{program} has no option {name}: `{text}`")
                    return
                if "=" not in token:
                    del rest[: options[name]]
                continue
            sub = token
            break
        if sub is None:
            if not any(a in ("-h", "--help", "-V", "--version") for a in args):
                error(path, line, f"{program} is run without a subcommand: `{text}`")
            return
        if sub not in subcommands:
            error(path, line, f"{program} has no subcommand `{sub}`: `{text}`")
            return
        options, _ = help_of(program, sub)
    for token in rest:
        token = token.strip("[]")
        if re.fullmatch(r"--[a-z][\w-]*(=.*)?", token) or re.fullmatch(r"-[A-Za-z]", token):
            name = token.split("=", 1)[0]
            if name not in options:
                where = f"{program} {sub}" if sub else program
                error(path, line, f"{where} has no option {name}: `{text}`")


def check_cargo(path, line, tokens, text):
    """`cargo SUBCOMMAND ...`: the packages named exist; `cargo run` checks its program."""
    names = set(PACKAGES.values())
    before, _, after = (
        (tokens[: tokens.index("--")], None, tokens[tokens.index("--") + 1 :])
        if "--" in tokens
        else (tokens, None, [])
    )
    package = binary = example = None
    i = 0
    while i < len(before):
        t = before[i]
        value = before[i + 1] if i + 1 < len(before) else None
        if t in ("-p", "--package"):
            package = value
            i += 1
        elif t.startswith("--package=") or t.startswith("-p="):
            package = t.split("=", 1)[1]
        elif t == "--bin":
            binary = value
            i += 1
        elif t == "--example":
            example = value
            i += 1
        elif t == "--exclude":
            if value not in names:
                error(path, line, f"no package `{value}`: `{text}`")
            i += 1
        i += 1
    if package is not None and package not in names and package.upper() != package:
        error(path, line, f"no package `{package}`: `{text}`")
        return
    if len(tokens) < 2 or tokens[1] != "run" or example:
        return
    package = package or DEFAULT_PACKAGE
    if package.upper() == package:  # a placeholder: PACKAGE
        return
    program = binary or DEFAULT_BIN.get(package)
    if program is None:
        error(path, line, f"`cargo run -p {package}` runs no program: `{text}`")
    elif program.upper() == program:
        return
    elif program not in PROGRAMS:
        error(path, line, f"no program `{program}`: `{text}`")
    else:
        check_args(path, line, program, after, text)


def check_command(path, line, text):
    """One shell line (continuations joined): each pipeline stage that runs our programs."""
    text = text.strip()
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        tokens = list(lexer)
    except ValueError:
        return
    stage = []
    for token in tokens + [";"]:
        if token and set(token) <= set(";&|()<>"):
            check_stage(path, line, stage, text)
            stage = []
        else:
            stage.append(token)


def check_stage(path, line, tokens, text):
    while tokens and (re.fullmatch(r"[A-Z_]+=.*", tokens[0]) or tokens[0] in WRAPPERS):
        tokens = tokens[1:]
    if not tokens:
        return
    head = tokens[0]
    if head == "cargo":
        check_cargo(path, line, tokens, text)
    elif head in PROGRAMS or re.fullmatch(r"(\S*/)?target/\w+/[\w-]+|\./[\w-]+", head):
        program = head.rsplit("/", 1)[-1]
        if program in PROGRAMS:
            check_args(path, line, program, tokens[1:], text)


def commands_in(path):
    """(line, command) of every command a page shows."""
    lines = path.read_text().splitlines()
    fence = None
    pending, start = "", 0
    for n, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if fence is None:
            m = re.match(r"^(```+|~~~+)\s*(\w*)", stripped)
            if m:
                fence = (m.group(1), m.group(2).lower())
                continue
            # Inline spans, within the paragraph (a span may wrap onto the next line).
            continue
        if stripped.startswith(fence[0]):
            fence = None
            continue
        if fence[1] not in ("", "bash", "sh", "shell", "console", "text"):
            continue
        command = re.sub(r"^\$ ", "", stripped)
        if not pending:
            start = n
        if command.endswith("\\"):
            pending += command[:-1] + " "
            continue
        yield start, pending + command
        pending = ""
    # Inline code spans, in paragraphs outside fences.
    text = path.read_text()
    text_no_fences = re.sub(r"(?ms)^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text)
    for m in re.finditer(r"`([^`]+)`", text_no_fences):
        span = m.group(1).replace("\n", " ")
        first = span.split(" ", 1)[0]
        if (first in PROGRAMS and " " in span) or span.startswith("cargo run"):
            yield text_no_fences.count("\n", 0, m.start()) + 1, span


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    found = set()
    counts = {}
    fence = False
    for raw in path.read_text().splitlines():
        if raw.startswith("```"):
            fence = not fence
        if fence:
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", raw)
        if not m:
            continue
        title = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda x: x.group(1) or "", m.group(1))
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        n = counts.get(slug, 0)
        counts[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def check_links(path):
    text = path.read_text()
    text = re.sub(r"(?ms)^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text)
    for m in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        if re.match(r"^[a-z]+:", target):
            continue
        if path.name == "README.md" and path.parent.parent.name == "crates" and "." not in target:
            continue  # an intra-doc link: the crates' READMEs are their rustdoc front pages
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            error(path, line, f"link to a missing file: {target}")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            error(path, line, f"link to a missing heading: {target}")


def check_results(path):
    """Each section with a body of its own has `Commit:` and `Command:` (or a bash block)."""
    lines = path.read_text().splitlines()
    sections = []
    fence = False
    for n, raw in enumerate(lines, 1):
        if raw.startswith("```"):
            fence = not fence
        if not fence and re.match(r"^#{2,3} ", raw):
            sections.append((n, raw, []))
        elif sections:
            sections[-1][2].append(raw)
    for n, title, body in sections:
        text = "\n".join(body)
        # Prose alone (no table, and no number outside code, links and dates) is no measurement.
        bare = re.sub(r"`[^`]*`|\]\([^)]*\)|\d{4}-\d\d-\d\d", "", text)
        if not re.search(r"^\|", text, re.M) and not re.search(r"\d", bare):
            continue
        commit = [b for b in body if b.startswith("Commit:")]
        if not commit or not any(re.search(r"`[0-9a-f]{7,40}`", c) for c in commit):
            error(path, n, f"`{title}` has no `Commit:` line naming a commit")
        if not any(b.startswith("Command:") or b.startswith("```bash") for b in body):
            error(path, n, f"`{title}` has no `Command:` line or bash block")


def check_layout():
    readme = ROOT / "README.md"
    text = readme.read_text()
    table = re.search(r"## The layout\n(.*?)\n\n", text, re.S)
    if not table:
        error(readme, 1, "no `## The layout` table")
        return
    rows = table.group(1)
    for folder, name in PACKAGES.items():
        if f"`{folder}`" not in rows:
            error(readme, 1, f"the layout table has no row for `{folder}` ({name})")
        if folder.startswith("apps/") and name not in DEFAULT_BIN.values():
            if f"`{folder}` (`{name}`)" not in rows and f"`{folder}` |" not in rows:
                error(readme, 1, f"the layout table does not name package `{name}`")
    for program in PROGRAMS:
        if f"`{program}`" not in rows:
            error(readme, 1, f"the layout table does not name the program `{program}`")


def check_rust_version(pages):
    version = re.search(r'rust-version\s*=\s*"([^"]+)"', (ROOT / "Cargo.toml").read_text()).group(1)
    for page in pages:
        for n, raw in enumerate(page.read_text().splitlines(), 1):
            for v in re.findall(r"\bRust (\d+\.\d+)", raw):
                if v != version:
                    error(page, n, f"Rust {v}, where the workspace's rust-version is {version}")


def main():
    docs = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    for page in docs:
        for line, command in commands_in(page):
            check_command(page, line, command)
    linked = docs + [ROOT / "CHANGELOG.md"] + sorted(ROOT.glob("crates/*/README.md"))
    for page in linked:
        check_links(page)
    check_results(ROOT / "docs" / "results.md")
    check_layout()
    check_rust_version(linked)
    for e in errors:
        print(e)
    if errors:
        print(f"docs-check: {len(errors)} disagreement(s) ({len(checked)} commands checked)", file=sys.stderr)
        sys.exit(1)
    print(f"docs-check: the docs agree with the code ({len(checked)} commands checked)")


main()
