#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec python -m uvicorn app.main:app --host 0.0.0.0 --port "$PORT"
