"""Project configuration package (settings and root URL configuration)."""
