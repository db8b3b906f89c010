"""Application factory."""
from eve import Eve

from . import settings as default_settings
from .datalayer import choose_data_layer
from .validation import PeopleValidator


def _settings_dict(overrides=None) -> dict:
    conf = {k: getattr(default_settings, k) for k in dir(default_settings) if k.isupper()}
    if overrides:
        conf.update(overrides)
    return conf


def _add_etag_header(resource, request, payload):
    """Expose the new ETag as a response header after POST/PUT/PATCH too."""
    if payload.status_code in (200, 201) and payload.is_json:
        body = payload.get_json(silent=True)
        if isinstance(body, dict) and body.get("_etag") and "ETag" not in payload.headers:
            payload.set_etag(body["_etag"])


def create_app(overrides=None) -> Eve:
    conf = _settings_dict(overrides)
    data_layer = choose_data_layer(conf["DOCUMENT_STORE"], conf["MONGO_URI"])
    app = Eve(
        import_name="people_service",
        settings=conf,
        data=data_layer,
        validator=PeopleValidator,
    )
    app.on_post_POST += _add_etag_header
    app.on_post_PUT += _add_etag_header
    app.on_post_PATCH += _add_etag_header

    @app.route("/health")
    def health():
        return {"status": "ok"}

    return app

