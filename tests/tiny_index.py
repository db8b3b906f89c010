"""A tiny PEP 503 package index served over HTTP: one hand-made wheel, ``gi-probe-pkg 1.0``,
whose module names the index it came from (``gi_probe_pkg.WHERE``). Two indexes with different
content let a test see which one an environment was installed from."""

from __future__ import annotations

import base64
import functools
import hashlib
import ipaddress
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PROJECT = "gi-probe-pkg"
MODULE = "gi_probe_pkg"
VERSION = "1.0"
WHEEL = f"{MODULE}-{VERSION}-py3-none-any.whl"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def add_project(root: Path, project: str, version: str, modules: dict[str, str]) -> Path:
    """``root/simple/<project>/`` with one pure-Python wheel holding ``modules`` (file name ->
    text); returns ``root``."""
    dist = project.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    files = {name: text.encode() for name, text in modules.items()}
    files[f"{info}/METADATA"] = \
        f"Metadata-Version: 2.1\nName: {project}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: tiny-index\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    folder = root / "simple" / project
    folder.mkdir(parents=True)
    wheel = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(folder / wheel, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    (folder / "index.html").write_text(f'<html><body><a href="{wheel}">{wheel}</a>'
                                       "</body></html>\n")
    projects = sorted(p.name for p in (root / "simple").iterdir() if p.is_dir())
    (root / "simple" / "index.html").write_text(
        "<html><body>" + "".join(f'<a href="{p}/">{p}</a>' for p in projects)
        + "</body></html>\n")
    return root


def build_index(root: Path, where: str) -> Path:
    """``root/simple/gi-probe-pkg/`` with a wheel whose module says ``WHERE = where``."""
    return add_project(root, PROJECT, VERSION, {f"{MODULE}.py": f"WHERE = {where!r}\n"})


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


@contextmanager
def serve(root: Path, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``root`` on ``host`` (a free port); yields the index URL (``…/simple``)."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = ThreadingHTTPServer((host, 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/simple"
    finally:
        server.shutdown()
        server.server_close()


def bridge_gateway(client) -> str:  # type: ignore[no-untyped-def] - a docker client
    """The host's address on Docker's default bridge, which install containers can reach."""
    config = client.networks.get("bridge").attrs["IPAM"]["Config"][0]
    return config.get("Gateway") or str(next(ipaddress.ip_network(config["Subnet"]).hosts()))
