from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import generics
from rest_framework.permissions import IsAuthenticated

from .filters import MovieFilter
from .models import Movie
from .pagination import CustomPagination
from .permissions import IsOwner
from .serializers import MovieSerializer


class MovieListCreateView(generics.ListCreateAPIView):
    serializer_class = MovieSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = CustomPagination
    filter_backends = (DjangoFilterBackend,)
    filterset_class = MovieFilter

    def get_queryset(self):
        return Movie.objects.filter(creator=self.request.user).order_by("-id")

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)


class MovieDetailView(generics.RetrieveUpdateDestroyAPIView):
    serializer_class = MovieSerializer
    permission_classes = (IsAuthenticated, IsOwner)
    queryset = Movie.objects.all()
