"""Serializers, views and URL routes for the movies API (/api/v1/)."""

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.urls import path
from rest_framework import generics, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from movies.models import Movie


# --------------------------------------------------------------------------- #
# Serializers
# --------------------------------------------------------------------------- #

class RegisterSerializer(serializers.ModelSerializer):
    password = serializers.CharField(write_only=True, required=True, style={"input_type": "password"})
    password2 = serializers.CharField(write_only=True, required=True, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True)
    first_name = serializers.CharField(required=False, allow_blank=True, max_length=150)
    last_name = serializers.CharField(required=False, allow_blank=True, max_length=150)

    class Meta:
        model = User
        fields = ("id", "username", "password", "password2", "email", "first_name", "last_name")
        read_only_fields = ("id",)

    def validate(self, attrs):
        if attrs.get("password") != attrs.get("password2"):
            raise serializers.ValidationError({"password": "Password fields didn't match."})
        return attrs

    def create(self, validated_data):
        validated_data.pop("password2", None)
        password = validated_data.pop("password")
        user = User(
            username=validated_data["username"],
            email=validated_data.get("email", ""),
            first_name=validated_data.get("first_name", ""),
            last_name=validated_data.get("last_name", ""),
        )
        user.set_password(password)
        user.save()
        return user


class MovieSerializer(serializers.ModelSerializer):
    creator = serializers.ReadOnlyField(source="creator.username")

    class Meta:
        model = Movie
        fields = ("id", "title", "genre", "year", "creator")
        read_only_fields = ("id", "creator")


# --------------------------------------------------------------------------- #
# Views
# --------------------------------------------------------------------------- #

class RegisterView(generics.CreateAPIView):
    queryset = User.objects.all()
    serializer_class = RegisterSerializer
    permission_classes = (AllowAny,)
    authentication_classes = ()


class MovieListCreateView(generics.ListCreateAPIView):
    serializer_class = MovieSerializer
    permission_classes = (IsAuthenticated,)

    def get_queryset(self):
        queryset = Movie.objects.filter(creator=self.request.user).order_by("id")
        title = self.request.query_params.get("title")
        if title:
            queryset = queryset.filter(title__icontains=title)
        return queryset

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)


class MovieDetailView(generics.RetrieveUpdateDestroyAPIView):
    serializer_class = MovieSerializer
    permission_classes = (IsAuthenticated,)
    queryset = Movie.objects.all()

    def get_object(self):
        movie = get_object_or_404(Movie, pk=self.kwargs["pk"])
        if movie.creator_id != self.request.user.id:
            raise PermissionDenied("You do not have permission to access this movie.")
        self.check_object_permissions(self.request, movie)
        return movie


# --------------------------------------------------------------------------- #
# URL routes
# --------------------------------------------------------------------------- #

urlpatterns = [
    path("api/v1/auth/register/", RegisterView.as_view(), name="auth-register"),
    path("api/v1/auth/token/", TokenObtainPairView.as_view(), name="token-obtain-pair"),
    path("api/v1/auth/refresh/", TokenRefreshView.as_view(), name="token-refresh"),
    path("api/v1/movies/", MovieListCreateView.as_view(), name="movie-list"),
    path("api/v1/movies/<int:pk>/", MovieDetailView.as_view(), name="movie-detail"),
]
