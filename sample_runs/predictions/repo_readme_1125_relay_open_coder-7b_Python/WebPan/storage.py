import threading

# simple in-memory data store
lock = threading.Lock()

users = {}      # user_id -> {user_id, username, password_hash, email, used_space, quota}
tokens = {}     # token -> {user_id, expires_at}
files = {}      # file_id -> {file_id, filename, path, size, mime_type, upload_time, download_count, owner_id, folder_id, description}
shares = {}     # share_id -> {share_id, file_id, owner_id, is_public, password_hash, expires_at, access_count}


def find_user_by_username(username):
    for u in users.values():
        if u['username'] == username:
            return u
    return None
