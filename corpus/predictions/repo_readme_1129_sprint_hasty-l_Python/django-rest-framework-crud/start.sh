#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings}"
python manage.py migrate --noinput
exec python manage.py runserver 0.0.0.0:8000 --noreload
