from rest_framework import permissions, viewsets

from .filters import MovieFilter
from .models import Movie
from .permissions import IsCreator
from .serializers import MovieSerializer


class MovieViewSet(viewsets.ModelViewSet):
    """CRUD on the authenticated user's own movies.

    Movies of other users are invisible (404), so a user can only list, read,
    update and delete what they created.
    """

    serializer_class = MovieSerializer
    permission_classes = [permissions.IsAuthenticated, IsCreator]
    filterset_class = MovieFilter
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return (
            Movie.objects.filter(creator=self.request.user)
            .select_related("creator")
            .order_by("id")
        )

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)
