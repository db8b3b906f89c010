#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
mkdir -p "${STORAGE_DIR:-./storage}"
exec python -m uvicorn app.main:app --host 0.0.0.0 --port "$PORT"
