"""cffi build script (API mode): compiles the C core into ``xiangqi._core``.

Environment switches:
  XIANGQI_NATIVE=1  compile with -march=native (never for distributed wheels)
  XIANGQI_DEBUG=1   asserts on, -O1 -g
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
EXCLUDE = {"xqperft.c"}


def c_sources() -> list[Path]:
    """The core's C files (every .c in csrc/ except the command-line driver)."""
    return sorted(p for p in HERE.glob("*.c") if p.name not in EXCLUDE and not p.name.startswith("_"))


def source_hash() -> str:
    """A digest of the C sources and headers, baked into the module to detect stale builds."""
    h = hashlib.sha256()
    for p in sorted(list(HERE.glob("*.c")) + list(HERE.glob("*.h"))):
        if p.name in EXCLUDE or p.name.startswith("_"):
            continue
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def compile_args() -> list[str]:
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-std=gnu11", "-Wall", "-Wextra"]
    if os.environ.get("XIANGQI_DEBUG") == "1":
        args += ["-O1", "-g", "-UNDEBUG"]
    else:
        args += ["-O3", "-DNDEBUG"]
    if os.environ.get("XIANGQI_NATIVE") == "1":
        args.append("-march=native")
    elif platform.machine().lower() in ("x86_64", "amd64"):
        args.append("-mpopcnt")  # x86-64 baseline plus popcnt
    return args


ffibuilder = FFI()
# xq_cdef.h first, then one xq_<subject>_cdef.h per subject header (xq_rules.h, xq_batch.h, ...).
ffibuilder.cdef("\n".join(p.read_text() for p in [HERE / "xq_cdef.h", *sorted(HERE.glob("xq_*_cdef.h"))]))
ffibuilder.set_source(
    "xiangqi._core",
    '#include "xq.h"\n'
    f'static const char *xq_build_hash(void) {{ return "{source_hash()}"; }}\n',
    sources=[str(p.relative_to(HERE.parent)) for p in c_sources()],
    include_dirs=[str(HERE)],
    extra_compile_args=compile_args(),
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
