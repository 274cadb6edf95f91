"""Both libraries the diagram reads: every model test runs on torch and on reftorch."""

import pytest
import reftorch
import torch


@pytest.fixture(params=[torch, reftorch], ids=["torch", "reftorch"])
def lib(request):
    return request.param
