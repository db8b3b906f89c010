from django.conf import settings
from django.db import models


class Movie(models.Model):
    """A movie owned by the user who created it."""

    title = models.CharField(max_length=200)
    genre = models.CharField(max_length=100)
    year = models.IntegerField()
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="movies",
        on_delete=models.CASCADE,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "movies"
        ordering = ["id"]

    def __str__(self):
        return f"{self.title} ({self.year})"
