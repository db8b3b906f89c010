#!/usr/bin/env bash
# Start the People service in the foreground on 0.0.0.0:5001.
#
# Storage backend (see README.md):
#   DOCUMENT_STORE=auto   (default) use MongoDB at MONGO_URI if it answers,
#                         otherwise fall back to an in-process document store
#   DOCUMENT_STORE=mongo  require MongoDB at MONGO_URI
#   DOCUMENT_STORE=memory always use the in-process document store
set -euo pipefail
cd "$(dirname "$0")"
export HOST="${HOST:-0.0.0.0}"
export PORT="${PORT:-5001}"
exec python run.py
