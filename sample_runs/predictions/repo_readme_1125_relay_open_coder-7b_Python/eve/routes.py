from flask import Blueprint, request, jsonify, make_response

from store import people_store
from utils import validate_people, strip_etag

people_bp = Blueprint('people', __name__)


def error(code, message, issues=None):
    body = {'_status': 'ERR', '_error': {'code': code, 'message': message}}
    if issues:
        body['_issues'] = issues
    return jsonify(body), code


def item_response(doc, status=200):
    resp = make_response(jsonify(doc), status)
    resp.headers['ETag'] = '"%s"' % doc['_etag']
    return resp


@people_bp.route('/people', methods=['GET'])
def list_people():
    filters = {}
    for field in ('firstname', 'lastname', 'role'):
        if field in request.args:
            filters[field] = request.args.get(field)
    items = people_store.list(filters)
    return jsonify({
        '_items': items,
        '_meta': {'total': len(items), 'page': 1, 'max_results': 25}
    }), 200


@people_bp.route('/people', methods=['POST'])
def create_people():
    data = request.get_json(silent=True)
    if data is None:
        return error(400, 'Invalid JSON body')
    issues = validate_people(data)
    if issues:
        return error(422, 'Insertion failure', issues)
    doc = people_store.create(data)
    body = dict(doc)
    body['_status'] = 'OK'
    resp = make_response(jsonify(body), 201)
    resp.headers['ETag'] = '"%s"' % doc['_etag']
    resp.headers['Location'] = '/people/%s' % doc['_id']
    return resp


@people_bp.route('/people/<item_id>', methods=['GET'])
def get_people(item_id):
    doc = people_store.get(item_id)
    if doc is None:
        return error(404, 'Not Found')
    if_none_match = strip_etag(request.headers.get('If-None-Match'))
    if if_none_match and if_none_match == doc['_etag']:
        return make_response('', 304)
    return item_response(doc)


@people_bp.route('/people/<item_id>', methods=['PUT', 'PATCH'])
def update_people(item_id):
    doc = people_store.get(item_id)
    if doc is None:
        return error(404, 'Not Found')

    if_match = strip_etag(request.headers.get('If-Match'))
    if not if_match:
        return error(428, 'To edit a document its etag must be provided using the If-Match header')
    if if_match != doc['_etag']:
        return error(412, 'Client and server etags don\'t match')

    data = request.get_json(silent=True)
    if data is None:
        return error(400, 'Invalid JSON body')
    issues = validate_people(data, partial=True)
    if issues:
        return error(422, 'Update failure', issues)

    updated = people_store.update(item_id, data)
    body = dict(updated)
    body['_status'] = 'OK'
    resp = make_response(jsonify(body), 200)
    resp.headers['ETag'] = '"%s"' % updated['_etag']
    return resp


@people_bp.route('/people/<item_id>', methods=['DELETE'])
def delete_people(item_id):
    doc = people_store.get(item_id)
    if doc is None:
        return error(404, 'Not Found')

    if_match = strip_etag(request.headers.get('If-Match'))
    if not if_match:
        return error(428, 'To delete a document its etag must be provided using the If-Match header')
    if if_match != doc['_etag']:
        return error(412, 'Client and server etags don\'t match')

    people_store.delete(item_id)
    return make_response('', 204)
