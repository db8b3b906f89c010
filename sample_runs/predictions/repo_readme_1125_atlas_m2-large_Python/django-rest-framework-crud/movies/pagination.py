from rest_framework.pagination import PageNumberPagination


class MoviePagination(PageNumberPagination):
    """``?page=N`` (and optionally ``?page_size=M``, at most 100)."""

    page_size_query_param = "page_size"
    max_page_size = 100
