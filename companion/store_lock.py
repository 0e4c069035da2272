"""One store, one writer: the lock file a companion holds while it writes to a game store.

Two companions appending plies to the same open game would interleave them
into a game nobody played. So the companion that writes to ``games.sqlite3``
holds an exclusive :func:`fcntl.flock` on ``games.sqlite3.lock`` beside it,
and writes its process number and command line into that file; a second one
is refused with a :class:`~companion.errors.StoreLockedError` naming the
holder. The kernel releases the lock when the holder's process ends, however
it ends (a crash or a power cut leaves no stale lock behind), and the holder
removes the file when it closes the store. Readers (``cascade games``,
``cascade export``) take no lock: SQLite lets them read beside the writer.
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

from companion.errors import StoreLockedError, StoreWriteError

LOCK_SUFFIX = ".lock"
COMMAND_CHARS = 160
_ATTEMPTS = 5


def lock_path(store_path: Path) -> Path:
    """The lock file of a store: ``games.sqlite3.lock`` beside ``games.sqlite3``."""
    return store_path.with_name(store_path.name + LOCK_SUFFIX)


def this_command() -> str:
    """This process's command line, short enough to quote in a message."""
    words = [Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python", *sys.argv[1:]]
    text = " ".join(words).replace("\n", " ")
    return text if len(text) <= COMMAND_CHARS else text[: COMMAND_CHARS - 1] + "…"


class WriterLock:
    """The exclusive lock of one store's writer (see the module docstring); ``release()`` frees it."""

    def __init__(self, store_path: Path) -> None:
        self.store_path = store_path
        self.path = lock_path(store_path)
        self._fd: int | None = None
        for _ in range(_ATTEMPTS):
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise StoreLockedError(
                    f"the game store {store_path} is in use by {holder}: one companion at a time writes to a "
                    "store; stop that one first, or give this one another file with --store"
                ) from None
            if _same_file(fd, self.path):
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n{this_command()}\n".encode("utf-8", "replace"))
                self._fd = fd
                return
            os.close(fd)  # the last holder removed the file between our open and our lock: open it again
        raise StoreLockedError(
            f"the game store {store_path} keeps changing hands: another program is opening and closing it; "
            "stop it, then start again"
        )

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise StoreWriteError(
                f"cannot write the lock file {self.path} beside the game store ({error.strerror}): "
                "make its folder writable, or give another file with --store"
            ) from error

    def release(self) -> None:
        """Remove the lock file and free the lock (safe to call twice)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if _same_file(fd, self.path):
                os.unlink(self.path)
        except OSError:
            pass  # a lock file left behind is harmless: the lock itself goes with the descriptor
        finally:
            os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _holder(fd: int) -> str:
    """``process 1234 (cascade run ...)`` from a lock file, as far as it says."""
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
    except OSError:
        text = ""
    pid, _, command = text.partition("\n")
    command = command.strip()
    if not pid.strip().isdigit():
        return "another process (it has not written its number yet)"
    return f"process {pid.strip()}" + (f" ({command})" if command else "")
