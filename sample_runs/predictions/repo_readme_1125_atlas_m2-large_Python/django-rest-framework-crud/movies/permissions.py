from rest_framework import permissions


class IsCreator(permissions.BasePermission):
    """Object-level check: only the creator may access a movie."""

    message = "You do not have permission to access this movie."

    def has_object_permission(self, request, view, obj):
        return obj.creator_id == getattr(request.user, "id", None)
