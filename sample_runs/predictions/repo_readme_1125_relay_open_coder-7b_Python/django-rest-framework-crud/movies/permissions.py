from rest_framework import permissions


class IsOwnerOrReadOnly(permissions.BasePermission):
    """
    Only the creator of a movie can edit or delete it.
    """

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return obj.creator == request.user
