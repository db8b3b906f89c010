import threading

SERVER_NAME = "example.org"

lock = threading.Lock()

# username -> {"user_id", "password_hash", "display_name"}
users = {}

# token -> {"user_id", "expires_at"}
tokens = {}

# room_id -> list of events
rooms = {}
