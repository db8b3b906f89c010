"""HTTP handlers for /todos."""
from flask import Blueprint, jsonify, request

from models import PRIORITIES, repo

bp = Blueprint("todos", __name__)


def _error(message, status):
    return jsonify(error=message), status


def _parse_bool(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes")


@bp.post("/todos")
def create_todo():
    data = request.get_json(silent=True) or {}
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        return _error("title is required", 400)
    priority = data.get("priority", "medium")
    if priority not in PRIORITIES:
        return _error(f"priority must be one of {', '.join(PRIORITIES)}", 400)
    todo = repo.add(title, done=bool(data.get("done", False)), priority=priority)
    return jsonify(todo.to_dict()), 201


@bp.get("/todos")
def list_todos():
    todos = repo.all()
    completed = request.args.get("completed")
    if completed is not None:
        wanted = _parse_bool(completed)
        todos = [t for t in todos if t.completed == wanted]
    return jsonify([t.to_dict() for t in todos])


@bp.get("/todos/<int:todo_id>")
def get_todo(todo_id):
    todo = repo.get(todo_id)
    if todo is None:
        return _error("todo not found", 404)
    return jsonify(todo.to_dict())


@bp.patch("/todos/<int:todo_id>")
def update_todo(todo_id):
    todo = repo.get(todo_id)
    if todo is None:
        return _error("todo not found", 404)
    data = request.get_json(silent=True) or {}
    if "priority" in data and data["priority"] not in PRIORITIES:
        return _error(f"priority must be one of {', '.join(PRIORITIES)}", 400)
    if "title" in data:
        todo.title = data["title"]
    if "completed" in data:
        todo.completed = bool(data["completed"])
    if "priority" in data:
        todo.priority = data["priority"]
    return jsonify(todo.to_dict())


@bp.delete("/todos/<int:todo_id>")
def delete_todo(todo_id):
    if not repo.remove(todo_id):
        return _error("todo not found", 404)
    return "", 204
