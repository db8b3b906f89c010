#!/usr/bin/env bash
# Start StructuredDataConvertor in the foreground on 0.0.0.0:8000.
set -euo pipefail
cd "$(dirname "$0")"
export HOST="${HOST:-0.0.0.0}"
export PORT="${PORT:-8000}"
exec python main.py
