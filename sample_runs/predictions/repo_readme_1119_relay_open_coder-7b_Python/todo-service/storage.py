class TodoStore:
    """In-memory storage for todos."""

    def __init__(self):
        self.todos = {}
        self.next_id = 1

    def create(self, title, completed=False, priority="medium"):
        todo = {"id": self.next_id, "title": title, "completed": completed, "priority": priority}
        self.todos[self.next_id] = todo
        self.next_id += 1
        return todo

    def list(self, completed=None):
        items = list(self.todos.values())
        if completed is not None:
            items = [t for t in items if t["completed"] == completed]
        return items

    def get(self, todo_id):
        return self.todos.get(todo_id)

    def delete(self, todo_id):
        return self.todos.pop(todo_id, None) is not None
