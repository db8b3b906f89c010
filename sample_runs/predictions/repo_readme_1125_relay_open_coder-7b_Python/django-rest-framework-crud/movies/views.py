from rest_framework import generics
from rest_framework.permissions import IsAuthenticated
from django_filters.rest_framework import DjangoFilterBackend

from .models import Movie
from .serializers import MovieSerializer
from .permissions import IsOwnerOrReadOnly
from .filters import MovieFilter
from .pagination import MoviePagination


class MovieListCreateView(generics.ListCreateAPIView):
    serializer_class = MovieSerializer
    queryset = Movie.objects.all()
    permission_classes = [IsAuthenticated]
    pagination_class = MoviePagination
    filter_backends = [DjangoFilterBackend]
    filterset_class = MovieFilter

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)


class MovieDetailView(generics.RetrieveUpdateDestroyAPIView):
    serializer_class = MovieSerializer
    queryset = Movie.objects.all()
    permission_classes = [IsAuthenticated, IsOwnerOrReadOnly]
