#!/usr/bin/env bash
# Start the service in the foreground on 0.0.0.0:${PORT:-5000}.
set -euo pipefail
cd "$(dirname "$0")"
exec python -m waitress --host="${HOST:-0.0.0.0}" --port="${PORT:-5000}" wsgi:application
