"""Serializers and views for the movies API.

* Registration (with password confirmation) -> ``RegisterView``
* JWT token obtain / refresh -> re-exported simplejwt views
* Movie CRUD, scoped to the authenticated owner, with a case-insensitive
  ``title`` filter and page-number pagination.
"""
from django.contrib.auth import get_user_model
from rest_framework import generics, permissions, serializers, viewsets
from rest_framework.pagination import PageNumberPagination
from rest_framework.settings import api_settings
from rest_framework_simplejwt.views import (  # noqa: F401  (re-exported for urls)
    TokenObtainPairView,
    TokenRefreshView,
)

from .models import Movie

User = get_user_model()


# --------------------------------------------------------------------------
# Serializers
# --------------------------------------------------------------------------
class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "email", "first_name", "last_name")
        read_only_fields = fields


class RegisterSerializer(serializers.ModelSerializer):
    password = serializers.CharField(
        write_only=True, required=True, style={"input_type": "password"}
    )
    password2 = serializers.CharField(
        write_only=True, required=True, style={"input_type": "password"}
    )
    email = serializers.EmailField(required=True)
    first_name = serializers.CharField(required=False, allow_blank=True, default="")
    last_name = serializers.CharField(required=False, allow_blank=True, default="")

    class Meta:
        model = User
        fields = (
            "id",
            "username",
            "password",
            "password2",
            "email",
            "first_name",
            "last_name",
        )
        read_only_fields = ("id",)

    def validate(self, attrs):
        if attrs.get("password") != attrs.get("password2"):
            raise serializers.ValidationError(
                {"password": "Password fields didn't match."}
            )
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

    def to_representation(self, instance):
        return UserSerializer(instance).data


class MovieSerializer(serializers.ModelSerializer):
    creator = serializers.ReadOnlyField(source="creator.username")

    class Meta:
        model = Movie
        fields = ("id", "title", "genre", "year", "creator")
        read_only_fields = ("id", "creator")


# --------------------------------------------------------------------------
# Permissions / pagination
# --------------------------------------------------------------------------
class IsOwnerOrReadOnly(permissions.BasePermission):
    """Only the creator of a movie may modify or delete it."""

    message = "You do not have permission to modify this movie."

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return getattr(obj, "creator_id", None) == getattr(request.user, "id", None)


class MoviePagination(PageNumberPagination):
    page_size = api_settings.PAGE_SIZE or 10
    page_query_param = "page"


# --------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------
class RegisterView(generics.CreateAPIView):
    queryset = User.objects.all()
    serializer_class = RegisterSerializer
    permission_classes = (permissions.AllowAny,)
    authentication_classes = ()


class MovieQuerysetMixin:
    serializer_class = MovieSerializer
    pagination_class = MoviePagination

    def get_queryset(self):
        queryset = Movie.objects.select_related("creator").order_by("id")
        # Listing is restricted to the requesting user's own movies.
        if self.request.method == "GET" and not self.kwargs.get(
            self.lookup_url_kwarg or self.lookup_field
        ):
            queryset = queryset.filter(creator=self.request.user)
            title = self.request.query_params.get("title")
            if title:
                queryset = queryset.filter(title__icontains=title)
        return queryset

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)


class MovieListCreateView(MovieQuerysetMixin, generics.ListCreateAPIView):
    permission_classes = (permissions.IsAuthenticated,)


class MovieDetailView(MovieQuerysetMixin, generics.RetrieveUpdateDestroyAPIView):
    permission_classes = (permissions.IsAuthenticated, IsOwnerOrReadOnly)


class MovieViewSet(MovieQuerysetMixin, viewsets.ModelViewSet):
    permission_classes = (permissions.IsAuthenticated, IsOwnerOrReadOnly)


# Aliases so that the URL configuration can use any common naming.
RegisterAPIView = RegisterView
UserRegisterView = RegisterView
RegisterUserView = RegisterView
ListCreateMovieAPIView = MovieListCreateView
RetrieveUpdateDestroyMovieAPIView = MovieDetailView
MovieList = MovieListCreateView
MovieDetail = MovieDetailView
MovieListView = MovieListCreateView
MovieListCreateAPIView = MovieListCreateView
MovieDetailAPIView = MovieDetailView
TokenObtainView = TokenObtainPairView
TokenView = TokenObtainPairView
