from django.contrib import admin
from django.urls import include, path

api_v1 = [
    path("auth/", include("accounts.urls")),
    path("", include("movies.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
]

handler400 = "config.views.bad_request"
handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
