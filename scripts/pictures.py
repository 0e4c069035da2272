"""Draw the pictures of the docs: every ``docs/pictures/NAME.rec`` becomes ``NAME.svg`` beside it.

Each record's final position is drawn by ``cascade diagram``, titled by the
record's ``Title`` header. ``--check`` draws nothing and exits 1, naming the
stale pictures, when any picture differs from what its record draws now.

    .venv/bin/python scripts/pictures.py [--check]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.cli import main as cascade  # noqa: E402
from referee.records import read_record  # noqa: E402

PICTURES = ROOT / "docs" / "pictures"


def draw(record: Path, out: Path) -> None:
    """Draw ``record``'s final position to ``out`` (SVG); raises SystemExit when the record does not replay."""
    title = read_record(record.read_text(encoding="utf-8")).header("Title")
    args = ["diagram", str(record), "--svg", str(out)] + (["--title", title] if title else [])
    if cascade(args) != 0:
        raise SystemExit(f"{record.name}: cascade diagram failed (see above)")


def main(argv: list[str]) -> int:
    """Draw (or with ``--check`` compare) every picture; the exit status."""
    check = argv == ["--check"]
    if argv and not check:
        print("usage: scripts/pictures.py [--check]", file=sys.stderr)
        return 2
    stale = []
    with tempfile.TemporaryDirectory() as scratch:
        for record in sorted(PICTURES.glob("*.rec")):
            picture = record.with_suffix(".svg")
            drawn = Path(scratch) / picture.name
            draw(record, drawn)
            new = drawn.read_text(encoding="utf-8")
            if not picture.exists() or picture.read_text(encoding="utf-8") != new:
                stale.append(picture.name)
                if not check:
                    picture.write_text(new, encoding="utf-8")
    if check and stale:
        print(f"stale pictures: {', '.join(stale)}: run .venv/bin/python scripts/pictures.py", file=sys.stderr)
        return 1
    if not check:
        print(f"drew {len(stale)} picture(s) in {PICTURES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
