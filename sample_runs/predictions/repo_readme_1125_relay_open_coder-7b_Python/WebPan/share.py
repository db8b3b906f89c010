from flask import Blueprint, request, jsonify, g
from werkzeug.security import check_password_hash

import storage
from auth import login_required
from utils import error_response, now

share_bp = Blueprint('share', __name__)
storage_bp = Blueprint('storage', __name__)


@share_bp.route('/<share_id>', methods=['GET'])
def access_share(share_id):
    share = storage.shares.get(share_id)
    if share is None:
        return error_response('Share link not found', 'SHARE_NOT_FOUND', 404)
    if share['expires_at'] < now():
        return error_response('Share link expired', 'SHARE_EXPIRED', 410)

    if share['password_hash']:
        password = request.args.get('password')
        if not password or not check_password_hash(share['password_hash'], password):
            return error_response('Invalid share password', 'AUTH_INVALID', 401)

    record = storage.files.get(share['file_id'])
    if record is None:
        return error_response('File not found', 'FILE_NOT_FOUND', 404)

    share['access_count'] += 1
    return jsonify({
        'success': True,
        'file_info': {
            'filename': record['filename'],
            'size': record['size'],
            'mime_type': record['mime_type']
        },
        'download_url': '/api/v1/files/%s/download?share_token=%s' % (record['file_id'], share_id)
    }), 200


@share_bp.route('/<share_id>', methods=['DELETE'])
@login_required
def delete_share(share_id):
    share = storage.shares.get(share_id)
    if share is None or share['owner_id'] != g.user['user_id']:
        return error_response('Share link not found', 'SHARE_NOT_FOUND', 404)
    storage.shares.pop(share_id, None)
    return jsonify({'success': True, 'message': 'Share link deleted successfully'}), 200


@storage_bp.route('/quota', methods=['GET'])
@login_required
def quota():
    used = g.user['used_space']
    total = g.user['quota']
    return jsonify({
        'success': True,
        'used_space': used,
        'total_space': total,
        'available_space': total - used,
        'usage_percentage': round(used * 100.0 / total, 2) if total else 0
    }), 200
