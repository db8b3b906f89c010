#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
# Serve the converter API
exec python -m uvicorn converter.api:app --host 127.0.0.1
