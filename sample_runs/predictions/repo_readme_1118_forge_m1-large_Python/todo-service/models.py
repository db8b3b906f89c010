"""Domain model and storage for todos."""
import itertools
import threading
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional

PRIORITIES = ("low", "medium", "high")


@dataclass
class Todo:
    id: int
    title: str
    done: bool = False
    priority: str = "medium"

    def to_dict(self) -> dict:
        return asdict(self)


class TodoRepository:
    def __init__(self) -> None:
        self._items: Dict[int, Todo] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, title: str, done: bool = False, priority: str = "medium") -> Todo:
        with self._lock:
            todo = Todo(id=next(self._ids), title=title, done=done, priority=priority)
            self._items[todo.id] = todo
            return todo

    def all(self) -> List[Todo]:
        return list(self._items.values())

    def get(self, todo_id: int) -> Optional[Todo]:
        return self._items.get(todo_id)

    def remove(self, todo_id: int) -> bool:
        with self._lock:
            return self._items.pop(todo_id, None) is not None


repo = TodoRepository()
