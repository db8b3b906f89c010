from flask import Blueprint, jsonify, request

from storage import TodoRepository

todos_bp = Blueprint("todos", __name__)
store = TodoRepository()

VALID_PRIORITIES = ["low", "medium", "high"]


@todos_bp.route("/todos", methods=["POST"])
def create_todo():
    data = request.get_json(silent=True) or {}
    title = data.get("title")
    if not title:
        return jsonify({"error": "title is required"}), 400
    priority = data.get("priority", "medium")
    if priority not in VALID_PRIORITIES:
        return jsonify({"error": "invalid priority"}), 400
    todo = store.create(title, bool(data.get("completed", False)), priority)
    return jsonify(todo), 201


@todos_bp.route("/todos", methods=["GET"])
def list_todos():
    completed = request.args.get("completed")
    if completed is not None:
        completed = completed.lower() == "true"
    return jsonify(store.list(completed))


@todos_bp.route("/todos/<int:todo_id>", methods=["GET"])
def get_todo(todo_id):
    todo = store.get(todo_id)
    if todo is None:
        return jsonify({"error": "not found"}), 404
    return jsonify(todo)


@todos_bp.route("/todos/<int:todo_id>", methods=["PATCH"])
def update_todo(todo_id):
    todo = store.get(todo_id)
    if todo is None:
        return jsonify({"error": "not found"}), 404
    data = request.get_json(silent=True) or {}
    if "priority" in data and data["priority"] not in VALID_PRIORITIES:
        return jsonify({"error": "invalid priority"}), 400
    for key in ("title", "completed", "priority"):
        if key in data:
            todo[key] = data[key]
    return jsonify(todo)


@todos_bp.route("/todos/<int:todo_id>", methods=["DELETE"])
def delete_todo(todo_id):
    if not store.delete(todo_id):
        return jsonify({"error": "not found"}), 404
    return "", 204
