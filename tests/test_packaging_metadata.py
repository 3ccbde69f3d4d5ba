"""The build says nothing alarming (#17): the licence is an SPDX expression, so setuptools reads the
project's metadata without a deprecation warning (a licence table or a licence classifier prints a
deprecation box on every install)."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_licence_is_an_spdx_expression_and_the_metadata_reads_without_warnings() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert not [c for c in project.get("classifiers", []) if c.startswith("License ::")]
    setuptools = pytest.importorskip("setuptools")
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any deprecation (or other) warning fails the test
        dist = apply_configuration(Distribution(), ROOT / "pyproject.toml")
    assert dist.metadata.license_expression == "MIT", setuptools.__version__
