from rest_framework import permissions


class IsOwner(permissions.BasePermission):
    message = "You do not have permission to access this movie."

    def has_object_permission(self, request, view, obj):
        return obj.creator_id == request.user.id
