#!/bin/bash
cd "$(dirname "$0")"
python manage.py makemigrations movies --noinput
python manage.py migrate --noinput
python manage.py runserver 0.0.0.0:8000 --noreload
