#!/usr/bin/env bash
# Start WebPan in the foreground on 0.0.0.0:8080 (waitress WSGI server).
set -euo pipefail
cd "$(dirname "$0")"
export HOST="${HOST:-0.0.0.0}"
export PORT="${PORT:-8080}"
exec python app.py
