"""The firmware builds clean, fits the ATmega328P, and frames bytes exactly as the golden file says."""

from __future__ import annotations

import contextlib
import random
import re
import subprocess
import threading
from pathlib import Path

import pytest

from firmware_bridge import ProtocolError
from firmware_bridge import protocol as p
from firmware_bridge.sim import FIRMWARE_DIR, build

from .conftest import GOLDEN, require_toolchain

FLASH_BYTES = 32768 - 512  # minus the Optiboot bootloader of the Uno and Nano
RAM_BYTES = 2048
STACK_RESERVE = 300  # the deepest call chain (sending an announcement from a message handler) needs well under this


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_toolchain()
    return tmp_path_factory.mktemp("firmware")


def make(build_dir: Path, *targets: str, leds: int = 64) -> str:
    result = subprocess.run(
        ["make", "-C", str(FIRMWARE_DIR), f"BUILD={build_dir}", f"LEDS={leds}", *targets],
        capture_output=True,
        text=True,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    return output


@pytest.mark.firmware
def test_the_firmware_and_harness_build_without_warnings(build_dir: Path) -> None:
    output = make(build_dir, "firmware", "harness", leds=64)
    assert "warning" not in output.lower(), output
    assert (build_dir / "leds-64" / "firmware.hex").stat().st_size > 0


@pytest.mark.firmware
@pytest.mark.parametrize("leds", [1, 256])
def test_the_firmware_fits_the_atmega328p(build_dir: Path, leds: int) -> None:
    output = make(build_dir, "size", leds=leds)
    flash = int(re.search(r"Program:\s+(\d+) bytes", output).group(1))  # type: ignore[union-attr]
    ram = int(re.search(r"Data:\s+(\d+) bytes", output).group(1))  # type: ignore[union-attr]
    assert flash < FLASH_BYTES
    assert ram + STACK_RESERVE < RAM_BYTES, f"{ram} bytes of static RAM leave too little stack"


@pytest.mark.firmware
def test_the_firmware_framing_matches_the_golden_file(build_dir: Path) -> None:
    output = make(build_dir, "test")
    count = sum(1 for line in GOLDEN.read_text().splitlines() if line.strip() and not line.startswith("#"))
    assert f"{count} golden messages checked, 0 failures" in output


@pytest.mark.firmware
def test_build_reuses_what_is_built(build_dir: Path) -> None:
    first = build(8, build_dir)
    stamp = first.firmware.stat().st_mtime_ns
    second = build(8, build_dir)
    assert second == first and second.firmware.stat().st_mtime_ns == stamp


@pytest.mark.firmware
def test_the_harness_rejects_bits_outside_the_timing_and_decodes_good_ones(build_dir: Path) -> None:
    make(build_dir, "harness", "timing-check")
    harness = subprocess.Popen(
        [str(build_dir / "simharness"), str(build_dir / "timing_check.elf"), "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert harness.stdout is not None and harness.stdin is not None
    lines = []
    watchdog = threading.Timer(60, harness.kill)  # a harness that never shows the LED fails instead of hanging
    watchdog.start()
    try:
        for line in harness.stdout:  # the program ends with the good LED: read up to it
            lines.append(line.strip())
            if line.startswith("LEDS "):
                break
    finally:
        watchdog.cancel()
        with contextlib.suppress(OSError):
            harness.stdin.write("quit\n")
            harness.stdin.close()
        harness.wait(timeout=30)
        harness.stdout.close()
    assert lines[0].startswith("PTY /dev/"), lines
    bad = [line for line in lines if line.startswith("BAD ")]
    shown = [line.split()[2] for line in lines if line.startswith("LEDS ")]
    assert bad and "high time 1625.0 ns of bit 0" in bad[0]
    assert shown == ["123456"]


def differential_frames(count: int, seed: int) -> list[bytes]:
    """Frames as a line delivers them: valid, damaged, truncated, random, and around the maximum length."""
    rng = random.Random(seed)
    frames = []
    for i in range(count):
        payload = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 4, 64, 255, 256, 257])))
        wire = bytearray(p.encode(p.Message(rng.randrange(256), rng.randrange(256), payload[:256]))[:-1])
        kind = i % 5
        if kind == 1:
            wire[rng.randrange(len(wire))] ^= rng.randrange(1, 256)
        elif kind == 2:
            del wire[rng.randrange(len(wire)) :]
        elif kind == 3:
            wire = bytearray(rng.randrange(1, 256) for _ in range(rng.randrange(1, 300)))
        elif kind == 4:
            wire += bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 4)))
        frames.append(bytes(b for b in wire if b != 0) or b"\x01")
    return frames


@pytest.mark.firmware
def test_the_firmware_decoder_agrees_with_the_python_decoder(build_dir: Path) -> None:
    make(build_dir, "decode-check")
    frames = differential_frames(5000, seed=2024)
    result = subprocess.run(
        [str(build_dir / "decode_check")],
        input="".join(frame.hex() + "\n" for frame in frames),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    verdicts = result.stdout.splitlines()
    assert len(verdicts) == len(frames)
    accepted = 0
    for frame, verdict in zip(frames, verdicts, strict=True):
        try:
            p.decode(frame)
            raw = p.cobs_decode(frame)
            assert verdict == f"ok {raw.hex()}", frame.hex()
            accepted += 1
        except ProtocolError:
            assert verdict == "drop", frame.hex()
    assert 900 <= accepted <= 1100  # the undamaged fifth is accepted, the damaged rest dropped
