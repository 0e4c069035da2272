"""Frame sources by spec string: folders, video files, MJPEG and snapshot URLs, the synthetic camera, and errors."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.sources import (
    Frame,
    SourceError,
    SourceNotFoundError,
    SourceSpecError,
    SourceUnreachableError,
    open_source,
)
from vision.synth import render_game

SIZE = (320, 240)


def pictures(n: int) -> list[np.ndarray]:
    """Distinct pictures: a grey level per picture and a white square that moves."""
    out = []
    for k in range(n):
        image = np.full((SIZE[1], SIZE[0], 3), 40 + 50 * k, np.uint8)
        cv2.rectangle(image, (20 + 30 * k, 40), (80 + 30 * k, 100), (255, 255, 255), -1)
        out.append(image)
    return out


def close_to(a: np.ndarray, b: np.ndarray, tolerance: float = 8.0) -> bool:
    return a.shape == b.shape and float(np.abs(a.astype(float) - b.astype(float)).mean()) < tolerance


def test_a_folder_gives_its_pictures_in_name_order(tmp_path):
    shots = pictures(3)
    for k, image in zip((2, 0, 1), shots, strict=True):
        cv2.imwrite(str(tmp_path / f"frame_{k:02d}.png"), image)
    (tmp_path / "notes.txt").write_text("not a picture")
    with open_source(f"dir:{tmp_path}") as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert all(isinstance(f, Frame) and f.truth is None for f in frames)
    assert [int(f.image[0, 0, 0]) for f in frames] == [int(shots[k][0, 0, 0]) for k in (1, 2, 0)]
    with open_source(str(tmp_path)) as bare:
        assert len(list(bare)) == 3, "a bare path to a folder is a folder source"


def test_a_folder_without_pictures_or_with_a_broken_one_says_so(tmp_path):
    with pytest.raises(SourceNotFoundError, match="holds no pictures"):
        open_source(f"dir:{tmp_path}")
    (tmp_path / "a.png").write_bytes(b"not really a png")
    with pytest.raises(SourceNotFoundError, match="cannot be read as a picture"):
        list(open_source(f"dir:{tmp_path}"))


def test_a_video_file_is_read_to_its_end(tmp_path):
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, SIZE)
    assert writer.isOpened(), "OpenCV here cannot write MJPG .avi files: install opencv-python-headless with FFmpeg"
    shots = pictures(4)
    for image in shots:
        writer.write(image)
    writer.release()
    source = open_source(f"file:{path}")
    frames = list(source)
    source.close()
    source.close()
    assert len(frames) == 4
    with open_source(str(path)) as bare:
        assert len(list(bare)) == 4, "a bare path to a file is a video file source"
    assert all(close_to(f.image, s) for f, s in zip(frames, shots, strict=True))


def test_a_file_that_is_not_a_video_says_so(tmp_path):
    path = tmp_path / "notes.mp4"
    path.write_text("hello")
    with pytest.raises(SourceNotFoundError, match="cannot be read as a video"):
        open_source(f"file:{path}")


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("file:/no/such/game.mp4", SourceNotFoundError, "no video file at /no/such/game.mp4"),
        ("dir:/no/such/frames", SourceNotFoundError, "no folder at /no/such/frames"),
        ("/dev/video97", SourceNotFoundError, "plug it in"),
        ("97", SourceNotFoundError, "camera 97 cannot be opened: plug it in"),
        ("", SourceSpecError, "no camera given"),
        ("webcam", SourceSpecError, "is not a camera spec: use one of 0, /dev/video0"),
        ("synth:?seed=x", SourceSpecError, "seed must be a whole number"),
        ("synth:?colour=red", SourceSpecError, "takes board, seed, conditions, size, moves, not colour"),
        ("synth:?board=diamond:99", SourceSpecError, "diamond:99"),
        ("synth:?conditions=foggy", SourceSpecError, "not a synthetic-camera preset"),
        ("synth:?size=big", SourceSpecError, "size must be WIDTHxHEIGHT"),
        ("synth:?seed", SourceSpecError, "name=value pairs"),
    ],
)
def test_bad_specs_get_a_typed_error_that_says_what_to_do(spec, error, message):
    with pytest.raises(error, match=message) as caught:
        open_source(spec)
    assert isinstance(caught.value, SourceError) and isinstance(caught.value, VisionError)
    assert isinstance(caught.value, OSError if error is SourceNotFoundError else ValueError)


def test_the_synthetic_camera_plays_a_scripted_game_with_its_truth():
    spec = "synth:?board=diamond:3&seed=4&size=320x240&moves=2&conditions=clean"
    frames = list(open_source(spec))
    assert frames and all(f.image.shape == (240, 320, 3) for f in frames)
    assert all(f.truth is not None and len(f.truth) == 9 for f in frames)
    assert set(frames[0].truth) == {"."} and sum(s != "." for s in frames[-1].truth) == 2
    assert any(f.occluded for f in frames) and any(f.hand_visible for f in frames)
    reference = next(iter(render_game("diamond:3", [frames[0].truth], 4, size=(320, 240))))
    assert reference.symbols == frames[0].truth


class _Camera(BaseHTTPRequestHandler):
    frames: ClassVar[list[bytes]] = []

    def do_GET(self) -> None:
        if self.path == "/stream":
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            for data in self.frames:
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n")
                self.wfile.write(f"Content-Length: {len(data)}\r\n\r\n".encode())
                self.wfile.write(data + b"\r\n")
        elif self.path == "/snapshot":
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(self.frames[0])))
            self.end_headers()
            self.wfile.write(self.frames[0])
        else:
            body = b"<html>a camera's settings page</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], daemon_threads: bool = False) -> Iterator[str]:
    """A local HTTP server answering with ``handler``, for as long as the block runs; yields its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = daemon_threads
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def camera_server(shots: list[np.ndarray]) -> Iterator[str]:
    _Camera.frames = [cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes() for image in shots]
    with serving(_Camera) as url:
        yield url


def test_an_mjpeg_stream_gives_every_frame_until_it_ends():
    shots = pictures(3)
    with camera_server(shots) as url, open_source(f"{url}/stream") as source:
        frames = list(source)
    assert len(frames) == 3
    assert all(close_to(f.image, s) for f, s in zip(frames, shots, strict=True))


def test_a_snapshot_url_is_fetched_again_for_every_frame():
    shots = pictures(1)
    with camera_server(shots) as url, open_source(f"{url}/snapshot") as source:
        stream = iter(source)
        frames = [next(stream) for _ in range(3)]
    assert [f.index for f in frames] == [0, 1, 2]
    assert all(close_to(f.image, shots[0]) for f in frames)


def test_a_url_that_is_not_a_camera_says_so():
    with camera_server(pictures(1)) as url, pytest.raises(SourceUnreachableError, match="not JPEG frames"):
        open_source(f"{url}/settings")


def test_an_unreachable_url_says_so():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SourceUnreachableError, match="cannot be reached") as caught:
        open_source(f"http://127.0.0.1:{port}/stream")
    assert isinstance(caught.value, ConnectionError)


class _Hostile(BaseHTTPRequestHandler):
    """A stream that is no camera's: a part announcing a giant frame, or bytes that never make one."""

    def do_GET(self) -> None:
        self.send_response(200)
        if self.path == "/snapshot":
            self.send_header("Content-Type", "image/jpeg")
            self.end_headers()
            self._endless(b"\xff\xd8")
            return
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        if self.path == "/giant":
            self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: 999999999999999\r\n\r\n")
            self._endless(b"\xff\xd8")
        else:
            self._endless(b"--frame\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8")

    def _endless(self, start: bytes) -> None:
        chunk = bytes(65536)
        try:
            self.wfile.write(start)
            for _ in range(2048):  # 128 MB at most: the reader must stop long before
                self.wfile.write(chunk)
        except OSError:
            pass  # the reader hung up, as it should

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/giant", "announced a frame of 999,999,999,999,999 bytes, more than the 32 MB"),
        ("/endless", "without a complete frame, more than the 32 MB"),
        ("/snapshot", "sent a frame of more than 33,554,432 bytes"),
    ],
)
def test_a_stream_that_never_makes_a_frame_stops_with_a_clear_error(path, words):
    with (
        serving(_Hostile, daemon_threads=True) as url,
        open_source(url + path) as source,
        pytest.raises(SourceUnreachableError) as caught,
    ):
        next(iter(source))
    assert words in str(caught.value) and "check the URL" in str(caught.value)


@pytest.mark.parametrize("spec", ["99999999999999999999999", "12345"])
def test_a_camera_number_too_large_for_any_camera_says_so(spec):
    with pytest.raises(SourceSpecError, match="too large for a camera number"):
        open_source(spec)
