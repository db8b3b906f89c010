"""Serializers, permissions and views for the movies API.

Exposes:
    RegisterView          -> POST /api/v1/auth/register/
    MovieListCreateView   -> GET/POST /api/v1/movies/
    MovieDetailView       -> GET/PUT/PATCH/DELETE /api/v1/movies/{id}/
"""
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from rest_framework import generics, permissions, serializers
from rest_framework.validators import UniqueValidator

from .models import Movie

User = get_user_model()


# ---------------------------------------------------------------------------
# Serializers
# ---------------------------------------------------------------------------
class RegisterSerializer(serializers.ModelSerializer):
    """Registers a new user; requires matching ``password`` and ``password2``."""

    email = serializers.EmailField(
        required=True,
        validators=[UniqueValidator(queryset=User.objects.all())],
    )
    password = serializers.CharField(
        write_only=True,
        required=True,
        validators=[validate_password],
        style={"input_type": "password"},
    )
    password2 = serializers.CharField(
        write_only=True,
        required=True,
        style={"input_type": "password"},
    )

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
        extra_kwargs = {
            "first_name": {"required": True},
            "last_name": {"required": True},
        }

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


class MovieSerializer(serializers.ModelSerializer):
    """Movie representation; ``creator`` is the owner's username (read-only)."""

    creator = serializers.ReadOnlyField(source="creator.username")

    class Meta:
        model = Movie
        fields = ("id", "title", "genre", "year", "creator")
        read_only_fields = ("id", "creator")


# ---------------------------------------------------------------------------
# Permissions
# ---------------------------------------------------------------------------
class IsOwnerOrReadOnly(permissions.BasePermission):
    """Only the movie's creator may modify or delete it."""

    message = "You do not have permission to modify this movie."

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return obj.creator_id == getattr(request.user, "id", None)


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------
class RegisterView(generics.CreateAPIView):
    """Open endpoint creating a user account."""

    queryset = User.objects.all()
    serializer_class = RegisterSerializer
    permission_classes = (permissions.AllowAny,)
    authentication_classes = ()


class MovieListCreateView(generics.ListCreateAPIView):
    """List movies (paginated, optional ``?title=`` icontains filter) or create one."""

    serializer_class = MovieSerializer
    permission_classes = (permissions.IsAuthenticated,)

    def get_queryset(self):
        queryset = Movie.objects.select_related("creator").all().order_by("id")
        title = self.request.query_params.get("title")
        if title:
            queryset = queryset.filter(title__icontains=title)
        return queryset

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)


class MovieDetailView(generics.RetrieveUpdateDestroyAPIView):
    """Retrieve, update or delete a single movie; writes restricted to its creator."""

    serializer_class = MovieSerializer
    permission_classes = (permissions.IsAuthenticated, IsOwnerOrReadOnly)
    queryset = Movie.objects.select_related("creator").all().order_by("id")
