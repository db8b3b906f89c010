"""Entry point: serve the Eve application with waitress (production WSGI server)."""
import logging
import os

from waitress import serve

from people_service import create_app


def main() -> None:
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "5001"))
    app = create_app()
    logging.getLogger("people_service").info("listening on http://%s:%d", host, port)
    serve(app, host=host, port=port, threads=int(os.environ.get("THREADS", "8")))


if __name__ == "__main__":
    main()
