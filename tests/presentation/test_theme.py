"""The book's theme without seaborn is seaborn's: `theme` holds what `sns.set_theme(context="notebook",
style="whitegrid", palette=...)` sets, the colour map aside (seaborn's "rocket" needs seaborn imported)."""

from __future__ import annotations

import matplotlib as mpl
import pytest

from benchbook.presentation import plotting, theme


def _settings(apply) -> dict:
    with mpl.rc_context():
        mpl.rc_file_defaults()
        apply()
        return {k: v for k, v in mpl.rcParams.items() if k != "image.cmap"}


def test_the_theme_sets_what_seaborn_sets():
    sns = pytest.importorskip("seaborn")
    ours = _settings(lambda: theme.apply(plotting.PALETTE))
    seaborns = _settings(lambda: sns.set_theme(context="notebook", style="whitegrid", palette=plotting.PALETTE))
    assert ours == seaborns


def test_a_setting_seaborn_makes_otherwise_is_seen():
    sns = pytest.importorskip("seaborn")
    ours = _settings(lambda: theme.apply(plotting.PALETTE))
    seaborns = _settings(lambda: sns.set_theme(context="paper", style="whitegrid", palette=plotting.PALETTE))
    assert {k for k in ours if ours[k] != seaborns[k]} >= {"font.size", "axes.labelsize"}
