"""Unbounded or hostile files and values: each gives one clear line and exit status 2, never an internal error."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from companion.cli import main
from vision.images import ImageReadError, claimed_size, read_image

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "calibration" / "profiles" / "diamond-8.json"


def png(width: int, height: int) -> bytes:
    """A few bytes of PNG claiming ``width`` x ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(64))) + chunk(b"IEND", b"")
    )


def one_line(capsys, status: int, expected: int = 2) -> str:
    _, err = capsys.readouterr()
    assert status == expected, err
    assert len(err.splitlines()) == 1 and len(err) < 600 and "Traceback" not in err
    return err


def test_replay_of_dev_zero_stops_at_once(capsys):
    err = one_line(capsys, main(["replay", "/dev/zero"]))
    assert "larger than the 1,000,000 bytes a record may be" in err


def test_replay_of_a_huge_record_stops_at_once(tmp_path, capsys):
    path = tmp_path / "huge.rec"
    path.write_text('[Game "cascade"]\n1. o d5 x f5 =\n' * 40_000, encoding="utf-8")
    err = one_line(capsys, main(["replay", str(path)]))
    assert "larger than the 1,000,000 bytes" in err


def test_an_error_never_echoes_a_huge_line(tmp_path, capsys):
    path = tmp_path / "long.rec"
    path.write_text("1. o d5 x " + "q" * 900_000 + "\n", encoding="utf-8")
    err = one_line(capsys, main(["replay", str(path)]))
    assert "'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq…' is not a cell name" in err


def test_a_board_size_of_5000_digits_is_refused(tmp_path, capsys):
    path = tmp_path / "big.rec"
    path.write_text(f'[Game "cascade"]\n[Size "{"9" * 5000}"]\n1. o d5\n', encoding="utf-8")
    err = one_line(capsys, main(["replay", str(path)]))
    assert "the Size header must be a small whole number" in err
    err = one_line(
        capsys, main(["print-markers", "--geometry", "diamond:" + "9" * 5000, "-o", str(tmp_path / "m.png")])
    )
    assert "is not a board" in err


def test_json_100000_deep_is_refused(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    err = one_line(capsys, main(["read", "--profile", str(deep), str(tmp_path / "photo.png")]))
    assert "nested too deeply" in err
    err = one_line(capsys, main(["leds", "test", "--leds", "none:", "--profile", str(deep)]))
    assert "nested too deeply" in err


def test_a_binary_layout_file_is_refused(tmp_path, capsys):
    photo = tmp_path / "photo.png"
    photo.write_bytes(png(64, 64))
    layout = tmp_path / "layout.txt"
    layout.write_bytes(bytes(range(256)) * 4)
    args = ["calibrate", "--geometry", "diamond:8", "--markers", "--empty", str(photo)]
    err = one_line(capsys, main([*args, "--known", f"{photo}={layout}", "-o", str(tmp_path / "p.json")]))
    assert "a file given is not UTF-8 text (invalid start byte at byte 128)" in err


def test_a_png_claiming_60000_by_60000_is_refused_before_decoding(tmp_path, capsys):
    photo = tmp_path / "huge.png"
    photo.write_bytes(png(60000, 60000))
    assert claimed_size(photo.read_bytes()) == (60000, 60000)
    with pytest.raises(ImageReadError, match="claims 60000x60000 pixels, more than the 200 megapixels"):
        read_image(photo)
    err = one_line(capsys, main(["read", "--profile", str(PROFILE), str(photo)]))
    assert "claims 60000x60000 pixels" in err


def test_a_jpeg_header_is_read_for_its_size():
    sof = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 48000, 64000) + bytes(12)
    assert claimed_size(b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 4) + b"ab" + sof) == (64000, 48000)
    assert claimed_size(b"GIF89a") is None


def test_a_camera_number_of_23_digits_is_refused(tmp_path, capsys):
    args = ["run", "--camera", "9" * 23, "--profile", str(PROFILE), "--store", str(tmp_path / "s.sqlite3")]
    err = one_line(capsys, main([*args, "--port", "0"]))
    assert "too large for a camera number" in err
