#!/usr/bin/env bash
# Start the Multilingual service in the foreground on 0.0.0.0:5000.
set -euo pipefail
cd "$(dirname "$0")"
export HOST="${HOST:-0.0.0.0}"
export PORT="${PORT:-5000}"
exec python app.py
