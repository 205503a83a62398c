"""Limits the commands share, in a module every layer may import (no click, no pnp parts)."""

from __future__ import annotations

#: The most worker processes (or Dask workers) one command may start: the one
#: limit of ``pnp build -j``, ``pnp rulebook -j`` and ``pnp simulate --jobs``, their
#: help and their defaults (the CPU count, at most this). A typo such as -j 1000
#: started hundreds of processes before any work was done. 256, not 64: a Dask
#: cluster (``--cluster``) may well have more workers than a machine has cores.
MAX_JOBS = 256
