from django.contrib.auth.models import User
from rest_framework import generics, viewsets
from rest_framework.permissions import AllowAny, IsAuthenticated

from .models import Movie
from .serializers import MovieSerializer, RegisterSerializer


class RegisterView(generics.CreateAPIView):
    queryset = User.objects.all()
    permission_classes = (AllowAny,)
    authentication_classes = ()
    serializer_class = RegisterSerializer


class MovieViewSet(viewsets.ModelViewSet):
    serializer_class = MovieSerializer
    permission_classes = (IsAuthenticated,)

    def get_queryset(self):
        qs = Movie.objects.filter(creator=self.request.user)
        title = self.request.query_params.get("title")
        if title:
            qs = qs.filter(title__icontains=title)
        return qs

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)
