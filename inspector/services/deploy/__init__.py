"""Deploying one generated repo: the backend protocol, local and Docker backends, warm pools."""
