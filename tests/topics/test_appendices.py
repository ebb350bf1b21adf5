"""The claims ledger's and the data catalogue's logic, run without a notebook: the counts their
prose quotes come from the ledgers and manifests, and an input they cannot read is one sentence."""

from __future__ import annotations

import json

import pytest

from benchbook.chapter import setup
from benchbook.parameters import ParameterError
from benchbook.topics import claims_ledger, data_catalogue


def _claim(i: str, status: str) -> dict:
    return {
        "id": i,
        "kind": "scaling",
        "status": status,
        "text": f"claim {i}",
        "rule": "r",
        "evidence": {},
        "reason": "",
        "caveat": "",
    }


def test_ledger_counts_each_status_over_every_chapter(tmp_path):
    (tmp_path / "a.claims.json").write_text(
        json.dumps({"chapter": "a", "inputs": [], "claims": [_claim("x", "shown"), _claim("y", "withheld")]})
    )
    (tmp_path / "b.json").write_text(json.dumps({"chapter": "b", "inputs": [], "claims": [_claim("z", "shown")]}))
    t = claims_ledger.page(claims_ledger.analyse(setup("claims_ledger", {"source": str(tmp_path)}))).texts
    assert (t["n_claims"], t["n_chapters"], t["n_shown"], t["n_withheld"], t["n_implausible"]) == (
        "3",
        "2",
        "2",
        "1",
        "0",
    )
    assert t["n_not_applicable"] == "0"


def test_ledger_counts_a_claim_that_cannot_apply_apart_from_the_withheld(tmp_path):
    """The four counts the prose gives add up to the total: a claim withheld because the input's format
    cannot have it is counted as not applicable, not as withheld."""
    cannot = _claim("n", "withheld")
    cannot["evidence"] = {"applicable": False}
    (tmp_path / "a.claims.json").write_text(
        json.dumps({"chapter": "a", "inputs": [], "claims": [_claim("x", "shown"), _claim("y", "withheld"), cannot]})
    )
    t = claims_ledger.page(claims_ledger.analyse(setup("claims_ledger", {"source": str(tmp_path)}))).texts
    assert (t["n_claims"], t["n_withheld"], t["n_not_applicable"]) == ("3", "1", "1")


def test_a_folder_without_ledgers_is_one_sentence(tmp_path):
    with pytest.raises(ParameterError, match="holds no claims ledger"):
        claims_ledger.analyse(setup("claims_ledger", {"source": str(tmp_path)}))


def test_catalogue_counts_the_raw_files_and_their_checksums():
    r = data_catalogue.analyse(setup("data_catalogue", {"raw_dir": "data/raw"}))
    t = data_catalogue.page(r).texts
    assert int(t["n_files"]) == len(r.files) > 0 and int(t["n_ok"]) == int(r.files["sha256_ok"].sum())


def test_the_catalogue_takes_one_folder_only():
    with pytest.raises(ParameterError, match="must be one folder"):
        data_catalogue.analyse(setup("data_catalogue", {"raw_dir": "data/raw,data/raw"}))
