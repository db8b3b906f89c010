#!/bin/bash
rm -f users.db
python app.py
