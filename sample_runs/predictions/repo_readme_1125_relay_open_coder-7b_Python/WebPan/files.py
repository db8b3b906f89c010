import os
import uuid
import math
import mimetypes
import secrets
from datetime import timedelta

from flask import Blueprint, request, jsonify, g, send_file
from werkzeug.utils import secure_filename
from werkzeug.security import generate_password_hash

import storage
from auth import login_required, get_user_from_token
from config import UPLOAD_FOLDER, MAX_FILE_SIZE
from utils import error_response, now, to_iso, now_iso

files_bp = Blueprint('files', __name__)


def save_upload(file_storage, user, folder_id=None, description=None):
    filename = file_storage.filename
    if not filename:
        raise ValueError('Empty filename')

    data = file_storage.read()
    size = len(data)
    if size > MAX_FILE_SIZE:
        raise OverflowError('FILE_TOO_LARGE')
    if user['used_space'] + size > user['quota']:
        raise MemoryError('QUOTA_EXCEEDED')

    file_id = uuid.uuid4().hex
    safe_name = secure_filename(filename) or 'file'
    path = os.path.join(UPLOAD_FOLDER, file_id + '_' + safe_name)
    with open(path, 'wb') as f:
        f.write(data)

    mime_type = file_storage.mimetype or mimetypes.guess_type(filename)[0] or 'application/octet-stream'
    record = {
        'file_id': file_id,
        'filename': filename,
        'path': path,
        'size': size,
        'mime_type': mime_type,
        'upload_time': now_iso(),
        'download_count': 0,
        'owner_id': user['user_id'],
        'folder_id': folder_id,
        'description': description,
    }
    with storage.lock:
        storage.files[file_id] = record
        user['used_space'] += size
    return record


def get_owned_file(file_id):
    record = storage.files.get(file_id)
    if record is None or record['owner_id'] != g.user['user_id']:
        return None
    return record


@files_bp.route('/upload', methods=['POST'])
@login_required
def upload():
    if 'file' not in request.files:
        return error_response('No file provided', 'INVALID_FORMAT', 400)
    f = request.files['file']
    if f.filename == '':
        return error_response('No file selected', 'INVALID_FORMAT', 400)

    try:
        record = save_upload(f, g.user, request.form.get('folder_id'), request.form.get('description'))
    except OverflowError:
        return error_response('File too large', 'FILE_TOO_LARGE', 413)
    except MemoryError:
        return error_response('Storage quota exceeded', 'QUOTA_EXCEEDED', 403)
    except ValueError as e:
        return error_response(str(e), 'INVALID_FORMAT', 400)

    return jsonify({
        'success': True,
        'file_id': record['file_id'],
        'filename': record['filename'],
        'size': record['size'],
        'upload_time': record['upload_time'],
        'download_url': '/api/v1/files/%s/download' % record['file_id']
    }), 201


@files_bp.route('/upload-multiple', methods=['POST'])
@login_required
def upload_multiple():
    file_list = request.files.getlist('files')
    if not file_list:
        return error_response('No files provided', 'INVALID_FORMAT', 400)

    folder_id = request.form.get('folder_id')
    uploaded = []
    failed = []
    for f in file_list:
        try:
            record = save_upload(f, g.user, folder_id)
            uploaded.append({
                'file_id': record['file_id'],
                'filename': record['filename'],
                'size': record['size'],
                'status': 'success'
            })
        except OverflowError:
            failed.append({'filename': f.filename, 'error': 'File too large'})
        except MemoryError:
            failed.append({'filename': f.filename, 'error': 'Storage quota exceeded'})
        except ValueError as e:
            failed.append({'filename': f.filename, 'error': str(e)})

    return jsonify({
        'success': True,
        'uploaded_files': uploaded,
        'failed_files': failed
    }), 200


@files_bp.route('/<file_id>/download', methods=['GET'])
def download(file_id):
    record = storage.files.get(file_id)
    user = get_user_from_token()

    allowed = False
    if user is not None and record is not None and record['owner_id'] == user['user_id']:
        allowed = True
    else:
        share_id = request.args.get('share_token') or request.args.get('share_id')
        if share_id:
            share = storage.shares.get(share_id)
            if share and record and share['file_id'] == file_id and share['expires_at'] > now():
                allowed = True

    if user is None and not allowed and not request.args.get('share_token') and not request.args.get('share_id'):
        return error_response('Authentication required', 'AUTH_REQUIRED', 401)
    if record is None:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)
    if not allowed:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)
    if not os.path.exists(record['path']):
        return error_response('File not found', 'FILE_NOT_FOUND', 404)

    record['download_count'] += 1
    return send_file(record['path'], mimetype=record['mime_type'], as_attachment=True,
                     download_name=record['filename'])


@files_bp.route('/<file_id>/info', methods=['GET'])
@login_required
def info(file_id):
    record = get_owned_file(file_id)
    if record is None:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)
    return jsonify({
        'success': True,
        'file_id': record['file_id'],
        'filename': record['filename'],
        'size': record['size'],
        'mime_type': record['mime_type'],
        'upload_time': record['upload_time'],
        'download_count': record['download_count'],
        'owner_id': record['owner_id']
    }), 200


@files_bp.route('', methods=['GET'])
@login_required
def list_files():
    try:
        page = int(request.args.get('page', 1))
        limit = int(request.args.get('limit', 20))
    except ValueError:
        return error_response('Invalid pagination parameters', 'INVALID_FORMAT', 400)
    if page < 1 or limit < 1:
        return error_response('Invalid pagination parameters', 'INVALID_FORMAT', 400)

    folder_id = request.args.get('folder_id')
    sort_by = request.args.get('sort_by', 'upload_time')
    order = request.args.get('order', 'desc')

    sort_keys = {'name': 'filename', 'size': 'size', 'upload_time': 'upload_time'}
    if sort_by not in sort_keys or order not in ('asc', 'desc'):
        return error_response('Invalid sort parameters', 'INVALID_FORMAT', 400)

    items = [f for f in storage.files.values() if f['owner_id'] == g.user['user_id']]
    if folder_id:
        items = [f for f in items if f.get('folder_id') == folder_id]
    items.sort(key=lambda f: f[sort_keys[sort_by]], reverse=(order == 'desc'))

    total = len(items)
    pages = math.ceil(total / limit) if total else 0
    start = (page - 1) * limit
    page_items = items[start:start + limit]

    return jsonify({
        'success': True,
        'files': [{
            'file_id': f['file_id'],
            'filename': f['filename'],
            'size': f['size'],
            'mime_type': f['mime_type'],
            'upload_time': f['upload_time'],
            'download_count': f['download_count']
        } for f in page_items],
        'pagination': {
            'page': page,
            'limit': limit,
            'total': total,
            'pages': pages
        }
    }), 200


@files_bp.route('/<file_id>', methods=['DELETE'])
@login_required
def delete_file(file_id):
    record = get_owned_file(file_id)
    if record is None:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)

    with storage.lock:
        storage.files.pop(file_id, None)
        g.user['used_space'] = max(0, g.user['used_space'] - record['size'])
        for sid in [s for s, v in storage.shares.items() if v['file_id'] == file_id]:
            storage.shares.pop(sid, None)
    try:
        os.remove(record['path'])
    except OSError:
        pass

    return jsonify({'success': True, 'message': 'File deleted successfully'}), 200


@files_bp.route('/<file_id>/rename', methods=['PUT'])
@login_required
def rename_file(file_id):
    record = get_owned_file(file_id)
    if record is None:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)

    data = request.get_json(silent=True) or {}
    new_name = data.get('new_name')
    if not new_name or not isinstance(new_name, str) or '/' in new_name:
        return error_response('Invalid new_name', 'INVALID_FORMAT', 400)

    record['filename'] = new_name
    return jsonify({
        'success': True,
        'message': 'File renamed successfully',
        'new_filename': new_name
    }), 200


@files_bp.route('/<file_id>/share', methods=['POST'])
@login_required
def create_share(file_id):
    record = get_owned_file(file_id)
    if record is None:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)

    data = request.get_json(silent=True) or {}
    is_public = data.get('is_public', True)
    expires_in = data.get('expires_in', 3600)
    password = data.get('password')

    if not isinstance(expires_in, int) or expires_in <= 0:
        return error_response('Invalid expires_in', 'INVALID_FORMAT', 400)

    share_id = secrets.token_urlsafe(12)
    expires_at = now() + timedelta(seconds=expires_in)
    storage.shares[share_id] = {
        'share_id': share_id,
        'file_id': file_id,
        'owner_id': g.user['user_id'],
        'is_public': bool(is_public),
        'password_hash': generate_password_hash(password) if password else None,
        'expires_at': expires_at,
        'access_count': 0,
    }

    return jsonify({
        'success': True,
        'share_id': share_id,
        'share_url': '/api/v1/share/%s' % share_id,
        'expires_at': to_iso(expires_at),
        'access_count': 0
    }), 201
