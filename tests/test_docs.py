"""The project explains itself: its docs' links hold, their pictures are current, and nothing points outside.

A clone without the folder beside it (``../shared``) must still explain the
games and the program: only the labelled photos (``../shared/data``) may be
named outside the tests, as the default place to look for them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.records import read_record, replay

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
MARKDOWN = [ROOT / "README.md", *DOCS, *sorted(ROOT.glob("*/README.md")), *sorted(ROOT.glob("*/*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
SOURCES = (
    "referee",
    "engine",
    "vision",
    "calibration",
    "firmware_bridge",
    "hardware",
    "companion",
    "hub",
    "scripts",
    "docs",
)


def test_the_docs_the_readme_promises_exist():
    for name in ("rules.md", "getting-started.md", "hardware.md", "architecture.md"):
        assert (ROOT / "docs" / name).is_file(), f"docs/{name} is missing"


@pytest.mark.parametrize("page", sorted(set(MARKDOWN)), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_picture_of_a_page_is_in_the_repository(page):
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links to {target}, which is missing"


def test_the_pictures_are_what_their_records_draw_now():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "pictures.py"), "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


def test_nothing_outside_the_tests_points_beside_the_repository_except_to_the_photos():
    offenders = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".md", ".sh", ".c", ".h", ".toml", ".html", ".js") or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                for mention in re.findall(r"\.\./shared[^\s`'\"),]*", line):
                    if not mention.startswith("../shared/data") and mention != "../shared":
                        offenders.append(f"{path.relative_to(ROOT)}:{number}: {mention}")
    for path in (ROOT / "README.md",):
        if "../shared" in path.read_text(encoding="utf-8"):
            offenders.append("README.md mentions ../shared")
    assert not offenders, offenders


def test_the_rules_example_replays_to_the_diagram_the_rules_show():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index('    [Game "cascade"] [Size "8"]')
    record = "\n".join(line.strip() for line in text[start:].split("\n\n")[0].splitlines())
    diagram = replay(read_record(record)).position.diagram()
    shown = [line.strip() for line in text.splitlines()]
    rows = [line.strip() for line in diagram.splitlines()]
    found = any(shown[i : i + len(rows)] == rows for i in range(len(shown)))
    assert found, "the Cascade diagram of docs/rules.md is not the one its example record gives"
