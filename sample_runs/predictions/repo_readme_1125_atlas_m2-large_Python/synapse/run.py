"""Entry point: serve the application with waitress."""
import logging

from waitress import serve

from synapse_service import create_app
from synapse_service.config import Settings


def main() -> None:
    settings = Settings.from_env()
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    app = create_app(settings)
    logging.getLogger("synapse_service").info(
        "serving %s on http://%s:%d (server name %s)",
        settings.service_name, settings.host, settings.port, settings.server_name,
    )
    serve(app, host=settings.host, port=settings.port, threads=settings.threads)


if __name__ == "__main__":
    main()
