"""Root URL configuration.

Authentication:
    POST /api/v1/auth/register/  -> user registration
    POST /api/v1/auth/token/     -> obtain JWT access/refresh pair
    POST /api/v1/auth/refresh/   -> refresh the access token

Movies:
    GET/POST          /api/v1/movies/
    GET/PUT/DELETE    /api/v1/movies/<id>/
"""

from django.urls import path
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from movies.api import MovieDetailView, MovieListCreateView, RegisterView

urlpatterns = [
    path("api/v1/auth/register/", RegisterView.as_view(), name="auth-register"),
    path("api/v1/auth/token/", TokenObtainPairView.as_view(), name="token-obtain-pair"),
    path("api/v1/auth/refresh/", TokenRefreshView.as_view(), name="token-refresh"),
    path("api/v1/movies/", MovieListCreateView.as_view(), name="movie-list"),
    path("api/v1/movies/<int:pk>/", MovieDetailView.as_view(), name="movie-detail"),
]
