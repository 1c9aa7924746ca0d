"""Running code without root's power to ignore file permissions, so that a read-only file or
folder is read-only even to a test run as root (as in many CI containers)."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path

_CAPABILITY_VERSION_3 = 0x20080522
_DAC_OVERRIDE, _DAC_READ_SEARCH = 1, 2  # the capabilities that bypass file permissions


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_permission_override() -> None:
    """Give up, for this process (call it before any thread starts), the capabilities that let
    root read and write files whatever their permissions. A process without them is unchanged."""
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _Header(_CAPABILITY_VERSION_3, 0), (_Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    kept = ~((1 << _DAC_OVERRIDE) | (1 << _DAC_READ_SEARCH))
    data[0].effective &= kept
    data[0].permitted &= kept
    data[0].inheritable &= kept
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


_OPEN = """
import asyncio, sys
from tests.data.privileges import drop_permission_override
drop_permission_override()
from data.storage import Storage, StorageError

async def main(path):
    storage = await Storage.open(path)
    await storage.close()

try:
    asyncio.run(main(sys.argv[1]))
except StorageError as error:
    print(error)
else:
    print("opened")
"""


def open_without_override(path: Path) -> str:
    """Open the database at `path` as the bot does, in a process without the override: the
    `StorageError` it raised, or "opened"."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _OPEN, str(path)], cwd=root, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()
