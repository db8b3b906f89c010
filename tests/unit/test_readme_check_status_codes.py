"""Which status checks want a success (model.readme_check_status), as triage's spec rules
read them."""

from __future__ import annotations

from inspector.model.failures import facts as ff
from inspector.model.readme.check_status import (
    expected_statuses,
    expects_success,
    is_server_error,
    is_success,
)


def test_success_and_server_error_codes() -> None:
    assert is_success(200) and is_success(204) and not is_success(300)
    assert not is_success("201") and not is_success(None)
    assert is_server_error(500) and is_server_error(503) and not is_server_error(499)
    assert not is_server_error(None) and not is_server_error("500")


def test_a_status_check_expects_success_when_every_alternative_is_2xx() -> None:
    assert expects_success(ff.Expectation(ff.STATUS, 201, 409))
    assert expects_success(ff.Expectation(ff.STATUS, (200, 201), 400))
    assert not expects_success(ff.Expectation(ff.STATUS, (200, 404), 500))
    assert not expects_success(ff.Expectation(ff.STATUS, (), 500))
    assert not expects_success(ff.Expectation(ff.STATUS, "201", 500))
    assert not expects_success(ff.Expectation(ff.VALUE, 200, 500))
    assert expected_statuses(ff.Expectation(ff.STATUS, 201)) == (201,)
    assert expected_statuses(ff.Expectation(ff.STATUS, (200, 201))) == (200, 201)
