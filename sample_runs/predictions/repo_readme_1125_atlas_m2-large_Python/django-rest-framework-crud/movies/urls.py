from rest_framework.routers import SimpleRouter

from .views import MovieViewSet

router = SimpleRouter(trailing_slash=True)
router.register("movies", MovieViewSet, basename="movie")

urlpatterns = router.urls
