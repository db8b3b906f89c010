"""Movies project package.

This package is both the Django project (settings, URL configuration) and the
single installed application (movie model, API serializers and views).
"""
