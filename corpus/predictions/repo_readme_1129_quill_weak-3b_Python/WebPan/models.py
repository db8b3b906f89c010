import uuid
from datetime import datetime
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


def gen_id():
    return uuid.uuid4().hex


class User(db.Model):
    id = db.Column(db.String(32), primary_key=True, default=gen_id)
    username = db.Column(db.String(80), unique=True, nullable=False)
    email = db.Column(db.String(120), nullable=False)
    password_hash = db.Column(db.String(255), nullable=False)
    quota = db.Column(db.BigInteger, default=10 * 1024 * 1024 * 1024)


class File(db.Model):
    id = db.Column(db.String(32), primary_key=True, default=gen_id)
    filename = db.Column(db.String(255), nullable=False)
    stored_name = db.Column(db.String(255), nullable=False)
    size = db.Column(db.BigInteger, default=0)
    mime_type = db.Column(db.String(120))
    description = db.Column(db.Text)
    folder_id = db.Column(db.String(64))
    upload_time = db.Column(db.DateTime, default=datetime.utcnow)
    download_count = db.Column(db.Integer, default=0)
    owner_id = db.Column(db.String(32), db.ForeignKey("user.id"))


class Share(db.Model):
    id = db.Column(db.String(32), primary_key=True, default=gen_id)
    file_id = db.Column(db.String(32), db.ForeignKey("file.id"))
    owner_id = db.Column(db.String(32))
    is_public = db.Column(db.Boolean, default=True)
    password_hash = db.Column(db.String(255))
    expires_at = db.Column(db.DateTime)
    access_count = db.Column(db.Integer, default=0)
    created_at = db.Column(db.DateTime, default=datetime.utcnow)
