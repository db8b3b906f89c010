"""StructuredDataConvertor - HTTP entry point.

Creates the Flask application and exposes:

* ``GET  /health`` and ``GET /api/v1/health`` - service health
* ``POST /api/v1/convert``                    - single format conversion
* ``POST /api/v1/convert/batch``              - batch format conversion

The conversion logic itself lives in ``service.py`` (request validation,
base64 handling, timing, metadata and batch orchestration) which in turn
uses ``converters.py`` for reading/writing CSV, Excel and PDF data.
"""

from __future__ import annotations

import inspect
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Iterable, Optional, Tuple

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

import service

SERVICE_VERSION = "1.0.0"
API_PREFIX = "/api/v1"
HOST = "0.0.0.0"
PORT = 8000


# ---------------------------------------------------------------------------
# Locating the service functions
# ---------------------------------------------------------------------------

def _resolve(names: Iterable[str]) -> Optional[Callable[..., Any]]:
    """Return the first callable in ``service`` (or its service object)."""
    for name in names:
        func = getattr(service, name, None)
        if callable(func) and not inspect.isclass(func):
            return func
    # Fall back to a service class/instance exposing the methods.
    for holder_name in ("ConversionService", "ConverterService", "Service",
                        "conversion_service", "converter_service"):
        holder = getattr(service, holder_name, None)
        if holder is None:
            continue
        if inspect.isclass(holder):
            try:
                holder = holder()
            except Exception:  # pragma: no cover - defensive
                continue
        for name in names:
            func = getattr(holder, name, None)
            if callable(func):
                return func
    return None


_SINGLE_NAMES = (
    "convert",
    "perform_conversion",
    "process_conversion",
    "run_conversion",
    "convert_single",
    "handle_conversion",
    "convert_data",
    "execute_conversion",
)
_BATCH_NAMES = (
    "convert_batch",
    "batch_convert",
    "process_batch",
    "run_batch",
    "perform_batch_conversion",
    "handle_batch",
    "execute_batch",
)


def _positional_arity(func: Callable[..., Any]) -> int:
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(
        1
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    )


# ---------------------------------------------------------------------------
# Response helpers
# ---------------------------------------------------------------------------

def _failure(message: str, status: int = 400) -> Tuple[Response, int]:
    return jsonify({
        "success": False,
        "message": message,
        "result": None,
        "metadata": None,
    }), status


def _batch_failure(message: str, status: int = 400) -> Tuple[Response, int]:
    return jsonify({
        "success": False,
        "message": message,
        "results": [],
        "summary": {
            "total_count": 0,
            "success_count": 0,
            "failure_count": 0,
            "total_time": 0.0,
        },
    }), status


def _split_result(outcome: Any) -> Tuple[Any, Optional[int]]:
    """Accept either ``payload`` or ``(payload, status)`` from the service."""
    if (isinstance(outcome, tuple) and len(outcome) == 2
            and isinstance(outcome[1], int)):
        return outcome[0], outcome[1]
    return outcome, None


def _to_dict(payload: Any) -> Dict[str, Any]:
    if isinstance(payload, dict):
        return payload
    for attr in ("to_dict", "dict", "model_dump"):
        method = getattr(payload, attr, None)
        if callable(method):
            return method()
    return dict(vars(payload))


def _get_json_object() -> Optional[Dict[str, Any]]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return None
    return data


# ---------------------------------------------------------------------------
# Application factory
# ---------------------------------------------------------------------------

def create_app() -> Flask:
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False
    # Allow reasonably large base64 payloads (100 MB).
    app.config["MAX_CONTENT_LENGTH"] = 100 * 1024 * 1024

    single_func = _resolve(_SINGLE_NAMES)
    batch_func = _resolve(_BATCH_NAMES)

    # ------------------------------------------------------------- health
    def health() -> Tuple[Response, int]:
        return jsonify({
            "status": "healthy",
            "timestamp": datetime.now(timezone.utc).isoformat(),
            "version": SERVICE_VERSION,
        }), 200

    app.add_url_rule("/health", "health", health, methods=["GET"])
    app.add_url_rule(f"{API_PREFIX}/health", "api_health", health,
                     methods=["GET"])

    # ------------------------------------------------------------ convert
    @app.route(f"{API_PREFIX}/convert", methods=["POST"])
    def convert() -> Tuple[Response, int]:
        payload = _get_json_object()
        if payload is None:
            return _failure("Request body must be a valid JSON object")
        if single_func is None:
            return _failure("Conversion service is unavailable", 500)

        outcome, status = _split_result(single_func(payload))
        result = _to_dict(outcome)
        if status is None:
            status = 200 if result.get("success") else 400
        return jsonify(result), status

    # ------------------------------------------------------ batch convert
    @app.route(f"{API_PREFIX}/convert/batch", methods=["POST"])
    def convert_batch() -> Tuple[Response, int]:
        payload = _get_json_object()
        if payload is None:
            return _batch_failure("Request body must be a valid JSON object")

        conversions = payload.get("conversions")
        if conversions is None:
            return _batch_failure("Missing required field: conversions")
        if not isinstance(conversions, list):
            return _batch_failure("Field 'conversions' must be a list")
        if len(conversions) == 0:
            return _batch_failure("Field 'conversions' must not be empty")

        parallel = payload.get("parallel", False)
        if parallel is None:
            parallel = False
        if not isinstance(parallel, bool):
            return _batch_failure("Field 'parallel' must be a boolean")

        if batch_func is None:
            return _batch_failure("Batch conversion service is unavailable",
                                  500)

        if _positional_arity(batch_func) >= 2:
            outcome = batch_func(conversions, parallel)
        else:
            outcome = batch_func({"conversions": conversions,
                                  "parallel": parallel})
        outcome, status = _split_result(outcome)
        result = _to_dict(outcome)
        return jsonify(result), status if status is not None else 200

    # ------------------------------------------------------------- errors
    @app.errorhandler(HTTPException)
    def handle_http_error(exc: HTTPException):
        code = exc.code or 500
        if code == 400:
            message = "Invalid request: body must be valid JSON"
        elif code == 404:
            message = "Resource not found"
        elif code == 405:
            message = "Method not allowed"
        elif code == 413:
            message = "Request payload too large"
        else:
            message = exc.description or exc.name
        return jsonify({"success": False, "message": message}), code

    @app.errorhandler(Exception)
    def handle_unexpected_error(exc: Exception):
        return jsonify({
            "success": False,
            "message": f"Internal server error: {exc}",
        }), 500

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host=HOST, port=PORT, threaded=True)
