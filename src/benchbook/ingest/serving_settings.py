"""The settings every serving run carries (the serving contract, named after vLLM's `bench serve` result), and
the one constructor by which a parser states what its tool gives and leaves the rest unknown."""

from __future__ import annotations

import math

SETTINGS = {
    "run": "str",
    "format": "str",
    "model": "str",
    "dataset": "str",
    "num_prompts": "float64",
    "request_rate": "float64",
    "max_concurrency": "float64",
    "burstiness": "float64",
    "metadata": "str",
}


def run_settings(run, fmt: str, **given) -> dict:
    """A run's settings: its name, its format and what the tool states; a number it does not state is NaN and a
    text None. A name outside the contract is an error, so a misspelt setting cannot vanish."""
    stray = set(given) - SETTINGS.keys()
    if stray:
        raise TypeError(f"not a serving setting: {', '.join(sorted(stray))}")
    given |= {"run": run, "format": fmt}
    return {k: given.get(k, math.nan if kind == "float64" else None) for k, kind in SETTINGS.items()}
