"""One bounded in-process memo: look up, else compute, store; forget all when full.

The renderer remembers parsed shapes, path operators, formatted numbers,
PDF names and font subsets for the rest of the process. Each table forgets
everything at once when an estimate of what it holds passes its limit
(no per-entry bookkeeping on the hot path; a full table is rare and
rebuilt from what recurs). The estimate is an entry count by default, or
what ``size_of`` says an entry costs (bytes, roughly), for tables whose
entries can be large: a count alone let 20,000 hundred-segment paths
keep 300 MB.
"""

from __future__ import annotations

from typing import Callable, Generic, Hashable, Sized, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: Rough bytes of one path operator tuple, ("L", x, y) with its two floats or
#: ("C", …) with six, and of the tuple holding them: what the limits of the
#: tables holding paths are estimated in (measured with tracemalloc: 100
#: segments ~ 15 kB).
OP_BYTES = 160
#: Rough bytes of an object besides its path (a node, an entry's tuple).
ENTRY_BYTES = 200


def ops_bytes(ops: Sized) -> int:
    """A rough estimate of the memory a path's operator tuple holds."""
    return ENTRY_BYTES + OP_BYTES * len(ops)


class BoundedMemo(Generic[K, V]):
    """A dict of remembered results, cleared whole once its estimated size passes ``limit``.

    ``get`` is the dict's own ``get`` (a hit costs no more than a plain
    dict look-up); :meth:`put` adds an entry, first clearing the table if
    the entry would take it over ``limit``.
    """

    __slots__ = ("data", "get", "limit", "size_of", "used")

    def __init__(self, limit: int, size_of: Callable[[K, V], int] | None = None) -> None:
        """Hold entries up to ``limit`` (entries, or the sum of ``size_of(key, value)``)."""
        self.data: dict[K, V] = {}
        self.get = self.data.get
        self.limit = limit
        self.size_of = size_of
        self.used = 0

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` under ``key`` and return it (clearing first when full)."""
        cost = 1 if self.size_of is None else self.size_of(key, value)
        if self.used + cost > self.limit:
            self.data.clear()   # the same dict: ``get`` stays bound to it
            self.used = 0
        self.data[key] = value
        self.used += cost   # a key stored again counts twice: an over-estimate, safe
        return value

    def clear(self) -> None:
        """Forget every entry."""
        self.data.clear()
        self.used = 0

    def __len__(self) -> int:
        """How many entries are kept."""
        return len(self.data)

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is kept."""
        return key in self.data
