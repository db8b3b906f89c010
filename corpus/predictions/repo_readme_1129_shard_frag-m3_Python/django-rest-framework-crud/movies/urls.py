"""URL configuration for the movies project.

Routes:
    /api/v1/auth/register/  -> user registration
    /api/v1/auth/token/     -> obtain JWT access/refresh pair
    /api/v1/auth/refresh/   -> refresh JWT access token
    /api/v1/movies/         -> list / create movies (owner-scoped)
    /api/v1/movies/<id>/    -> retrieve / update / delete a movie
"""
from django.urls import include, path
from rest_framework.routers import DefaultRouter
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from . import api


def _first(*names):
    """Return the first attribute of ``movies.api`` that exists among ``names``."""
    for name in names:
        view = getattr(api, name, None)
        if view is not None:
            return view
    return None


def _as_view(view):
    """Turn a class-based view into a callable; leave function views as they are."""
    if hasattr(view, "as_view"):
        return view.as_view()
    return view


RegisterView = _first(
    "RegisterView",
    "RegisterAPIView",
    "UserRegisterView",
    "RegistrationView",
    "UserCreateView",
    "register",
)

MovieViewSet = _first("MovieViewSet", "MoviesViewSet", "MovieModelViewSet")

auth_patterns = [
    path("auth/register/", _as_view(RegisterView), name="auth_register"),
    path("auth/token/", TokenObtainPairView.as_view(), name="token_obtain_pair"),
    path("auth/refresh/", TokenRefreshView.as_view(), name="token_refresh"),
]

if MovieViewSet is not None:
    router = DefaultRouter()
    router.register(r"movies", MovieViewSet, basename="movie")
    movie_patterns = [path("", include(router.urls))]
else:
    MovieListView = _first(
        "MovieListCreateView",
        "MovieListCreateAPIView",
        "MovieList",
        "MovieListView",
        "ListCreateMovieAPIView",
        "movie_list",
    )
    MovieDetailView = _first(
        "MovieDetailView",
        "MovieRetrieveUpdateDestroyView",
        "MovieRetrieveUpdateDestroyAPIView",
        "MovieDetail",
        "MovieDetailAPIView",
        "RetrieveUpdateDestroyMovieAPIView",
        "movie_detail",
    )
    movie_patterns = [
        path("movies/", _as_view(MovieListView), name="movie-list"),
        path("movies/<int:pk>/", _as_view(MovieDetailView), name="movie-detail"),
    ]

urlpatterns = [
    path("api/v1/", include(auth_patterns + movie_patterns)),
]
