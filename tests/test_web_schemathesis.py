"""Schemathesis against the API's own OpenAPI document (issue 10): generated requests, valid and invalid,
for every operation; every answer must be a documented status with a body matching its schema, and none a
server error. Bounded: a few dozen examples per operation and half-second solve budgets (well under a
minute in all). ``NPUZZLE_SCHEMATHESIS_EXAMPLES`` raises the count for a longer hunt.

One check is left out: ``positive_data_acceptance`` expects every schema-valid request to be accepted, but
a JSON schema cannot say that the labels must be a permutation with one blank, that the goal must fit the
board, or that the board must be solvable; those get a 400 with the reason, by design (test_web_api.py).
Everything else runs: server errors, undocumented statuses, content types, response schemas and headers,
invalid data that is accepted, unsupported methods.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from npuzzle.web import create_app
from npuzzle.web.app import WebSettings

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in the test extra")

EXAMPLES = int(os.environ.get("NPUZZLE_SCHEMATHESIS_EXAMPLES", "25"))
APP = create_app(WebSettings(max_seconds=0.5, default_seconds=0.5, hint_seconds=0.5, grace_seconds=30))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_operation_keeps_its_contract(case: Any) -> None:
    response = case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
    assert response.status_code < 500, response.text[:300]
