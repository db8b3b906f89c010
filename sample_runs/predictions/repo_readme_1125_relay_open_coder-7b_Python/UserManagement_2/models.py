from datetime import datetime
from werkzeug.security import generate_password_hash, check_password_hash
from database import get_db


def now_iso():
    return datetime.utcnow().isoformat() + 'Z'


def user_to_dict(row):
    if row is None:
        return None
    return {
        'user_id': row['id'],
        'username': row['username'],
        'email': row['email'],
        'full_name': row['full_name'] or '',
        'created_at': row['created_at'],
        'updated_at': row['updated_at'],
    }


def create_user(username, email, password, full_name=None):
    conn = get_db()
    ts = now_iso()
    cur = conn.execute(
        'INSERT INTO users (username, email, password_hash, full_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        (username, email, generate_password_hash(password), full_name, ts, ts)
    )
    conn.commit()
    user_id = cur.lastrowid
    row = conn.execute('SELECT * FROM users WHERE id = ?', (user_id,)).fetchone()
    conn.close()
    return user_to_dict(row)


def get_user_by_id(user_id):
    conn = get_db()
    row = conn.execute('SELECT * FROM users WHERE id = ?', (user_id,)).fetchone()
    conn.close()
    return user_to_dict(row)


def get_user_by_username(username):
    conn = get_db()
    row = conn.execute('SELECT * FROM users WHERE username = ?', (username,)).fetchone()
    conn.close()
    return row


def get_user_by_email(email):
    conn = get_db()
    row = conn.execute('SELECT * FROM users WHERE email = ?', (email,)).fetchone()
    conn.close()
    return row


def verify_password(row, password):
    return check_password_hash(row['password_hash'], password)


def update_user(user_id, email=None, full_name=None):
    conn = get_db()
    fields = []
    values = []
    if email is not None:
        fields.append('email = ?')
        values.append(email)
    if full_name is not None:
        fields.append('full_name = ?')
        values.append(full_name)
    fields.append('updated_at = ?')
    values.append(now_iso())
    values.append(user_id)
    conn.execute('UPDATE users SET ' + ', '.join(fields) + ' WHERE id = ?', values)
    conn.commit()
    row = conn.execute('SELECT * FROM users WHERE id = ?', (user_id,)).fetchone()
    conn.close()
    return user_to_dict(row)


def delete_user(user_id):
    conn = get_db()
    conn.execute('DELETE FROM users WHERE id = ?', (user_id,))
    conn.commit()
    conn.close()
