#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
python manage.py makemigrations movies --noinput || python manage.py makemigrations --noinput
python manage.py migrate --noinput
exec python manage.py runserver 0.0.0.0:8000 --noreload
