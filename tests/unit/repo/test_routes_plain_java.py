"""Strict API coverage of Java repos without a routing framework: the JDK's HttpServer and
plain (Jetty) servlets, written the way agents write them. Each case is a small repo in
tmp_path and the README endpoints it is scored against; the expected value is the declaring
``file:line`` when implemented, ``unresolved: ...`` when only an unreadable route could serve
it, or None when missing."""

from __future__ import annotations

from pathlib import Path

from inspector.model.benchmark.task import Endpoint
from inspector.services.repo.coverage import compute_coverage

P = "src/main/java/app/"
BOOKMARKS = ["GET /health", "GET /bookmarks", "POST /bookmarks", "GET /bookmarks/{id}",
             "PUT /bookmarks/{id}", "DELETE /bookmarks/{id}", "GET /tags"]


def _score(tmp_path: Path, files: dict[str, str], endpoints: list[str]) -> dict[str, str | None]:
    for name, text in files.items():
        f = tmp_path / P / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    eps = [Endpoint(*e.split(" ", 1)) for e in endpoints]
    out: dict[str, str | None] = {}
    for r in compute_coverage(tmp_path, eps).endpoints:
        key = f"{r.method} {r.path}"
        if r.implemented:
            out[key] = f"{r.evidence[0].file.removeprefix(P)}:{r.evidence[0].line}"
        else:
            out[key] = f"unresolved: {r.unresolved}" if r.unresolved else None
    return out


JDK_MAIN = """package app;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
public class Main {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);
        BookmarkHandler handler = new BookmarkHandler();
        server.createContext("/bookmarks", handler);
        server.createContext("/health", ex -> {
            if (!"GET".equals(ex.getRequestMethod())) { ex.sendResponseHeaders(405, -1); return; }
            ex.sendResponseHeaders(200, -1);
        });
        server.start();
    }
}
"""

JDK_HANDLER = """package app;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
public class BookmarkHandler implements HttpHandler {
    @Override
    public void handle(HttpExchange ex) throws java.io.IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        if (path.equals("/bookmarks")) {
            if ("GET".equals(method)) list(ex);
            else send(ex, 405);
            return;
        }
        if (path.equals("/tags")) {      // never reaches this handler: another prefix
            tags(ex);
            return;
        }
        if (path.startsWith("/bookmarks/")) {
            long id = Long.parseLong(path.substring("/bookmarks/".length()));
            switch (method) {
                case "GET": get(ex, id); return;
                case "DELETE": delete(ex, id); return;
                default: send(ex, 405);
            }
        }
    }
    private void list(HttpExchange ex) {}
    private void tags(HttpExchange ex) {}
    private void get(HttpExchange ex, long id) {}
    private void delete(HttpExchange ex, long id) {}
    private void send(HttpExchange ex, int status) {}
}
"""


def test_jdk_contexts_count_the_methods_each_path_branch_tests(tmp_path: Path) -> None:
    got = _score(tmp_path, {"Main.java": JDK_MAIN, "BookmarkHandler.java": JDK_HANDLER},
                 BOOKMARKS)
    assert got == {
        "GET /health": "Main.java:9",
        "GET /bookmarks": "BookmarkHandler.java:9",
        "POST /bookmarks": None,  # the branch only answers GET
        "GET /bookmarks/{id}": "BookmarkHandler.java:18",
        "PUT /bookmarks/{id}": None,
        "DELETE /bookmarks/{id}": "BookmarkHandler.java:18",
        "GET /tags": None,  # tested in a handler mounted at /bookmarks only
    }


ROUTER = """package app;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
public class Server {
    private static final Pattern ITEM = Pattern.compile("^/bookmarks/(\\\\d+)$");
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);
        server.createContext("/", new Server()::route);
        server.start();
    }
    void route(HttpExchange ex) throws java.io.IOException {
        String m = ex.getRequestMethod().toUpperCase();
        String p = ex.getRequestURI().getPath();
        switch (p) {
            case "/health" -> requireGet(m, ex);
            case "/bookmarks" -> bookmarks(m, ex);
            default -> {
                Matcher mt = ITEM.matcher(p);
                if (mt.matches()) {
                    if (m.equals("PUT")) update(ex, mt.group(1));
                    else ex.sendResponseHeaders(405, -1);
                } else ex.sendResponseHeaders(404, -1);
            }
        }
    }
    private void requireGet(String m, HttpExchange ex) { if (!"GET".equals(m)) return; }
    private void bookmarks(String m, HttpExchange ex) {
        if (m.equals("POST")) create(ex);
    }
    private void create(HttpExchange ex) {}
    private void update(HttpExchange ex, String id) {}
}
"""


def test_jdk_hand_written_router_follows_calls_and_patterns(tmp_path: Path) -> None:
    got = _score(tmp_path, {"Server.java": ROUTER}, BOOKMARKS)
    assert got == {
        "GET /health": "Server.java:18",
        "GET /bookmarks": None,
        "POST /bookmarks": "Server.java:19",
        "GET /bookmarks/{id}": None,
        "PUT /bookmarks/{id}": "Server.java:21",
        "DELETE /bookmarks/{id}": None,
        "GET /tags": None,
    }


JETTY_MAIN = """package app;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
public class Main {
    public static void main(String[] args) throws Exception {
        Server server = new Server(8080);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new BookmarkServlet()), "/bookmarks/*");
        context.addServlet(TagsServlet.class, "/tags");
        server.setHandler(context);
        server.start();
    }
}
"""

BOOKMARK_SERVLET = """package app;
import javax.servlet.http.*;
public class BookmarkServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
        String path = req.getPathInfo();
        if (path == null || path.equals("/")) {
            list(resp);
            return;
        }
        show(resp, Long.parseLong(path.substring(1)));
    }
    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) {
        String path = req.getPathInfo();
        if (path != null && !path.equals("/")) { resp.setStatus(404); return; }
        create(req, resp);
    }
    private void list(HttpServletResponse r) {}
    private void show(HttpServletResponse r, long id) {}
    private void create(HttpServletRequest q, HttpServletResponse r) {}
}
"""

TAGS_SERVLET = """package app;
import javax.servlet.http.*;
public class TagsServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
        resp.setStatus(200);
    }
}
"""

HEALTH_SERVLET = """package app;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.*;
@WebServlet(urlPatterns = {"/health"})
public class HealthServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
        resp.setStatus(200);
    }
}
"""


def test_jetty_servlets_serve_the_methods_they_override(tmp_path: Path) -> None:
    got = _score(tmp_path, {"Main.java": JETTY_MAIN, "BookmarkServlet.java": BOOKMARK_SERVLET,
                            "TagsServlet.java": TAGS_SERVLET,
                            "HealthServlet.java": HEALTH_SERVLET}, BOOKMARKS)
    assert got == {
        "GET /health": "HealthServlet.java:7",
        "GET /bookmarks": "BookmarkServlet.java:7",
        "POST /bookmarks": "BookmarkServlet.java:16",
        # the id is parsed in code: the route exists, its sub-path cannot be read
        "GET /bookmarks/{id}": "unresolved: sub-path parsed in code (src/main/java/app/"
                               "BookmarkServlet.java:5)",
        "PUT /bookmarks/{id}": None,  # no doPut
        "DELETE /bookmarks/{id}": None,
        "GET /tags": "TagsServlet.java:5",
    }


FRONT = """package app;
import javax.servlet.http.*;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.servlet.*;
public class Front extends HttpServlet {
    private final Router router = new Router();
    public static void main(String[] args) throws Exception {
        Server server = new Server(8080);
        ServletContextHandler ctx = new ServletContextHandler();
        Front front = new Front();
        front.router.add("GET", "/bookmarks", Front::list)
              .add("POST", "/bookmarks", Front::create);
        front.router.delete("/bookmarks/{id}", Front::remove);
        ctx.addServlet(new ServletHolder("api", front), "/*");
        server.setHandler(ctx);
        server.start();
    }
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) {
        router.dispatch(req.getMethod(), req.getPathInfo(), req, resp);
    }
    static void list(HttpServletRequest q, HttpServletResponse r) {}
    static void create(HttpServletRequest q, HttpServletResponse r) {}
    static void remove(HttpServletRequest q, HttpServletResponse r) {}
}
"""


def test_route_table_over_one_front_servlet(tmp_path: Path) -> None:
    got = _score(tmp_path, {"Front.java": FRONT}, BOOKMARKS)
    assert got == {
        "GET /health": None, "GET /bookmarks": "Front.java:11",
        "POST /bookmarks": "Front.java:12", "GET /bookmarks/{id}": None,
        "PUT /bookmarks/{id}": None, "DELETE /bookmarks/{id}": "Front.java:13",
        "GET /tags": None,
    }


def test_other_methods_other_prefixes_and_maps_stay_out(tmp_path: Path) -> None:
    """A GET-only handler covers no POST, a context covers no other prefix, and a map's
    ``put("/x", ...)`` in a repo that has a route table is no route."""
    main = """package app;
import com.sun.net.httpserver.HttpServer;
import java.util.HashMap;
import java.util.Map;
public class Main {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new java.net.InetSocketAddress(8080), 0);
        Map<String, Runnable> hooks = new HashMap<>();
        hooks.put("/bookmarks", Main::noop);
        server.createContext("/bookmarks", ex -> {
            if (ex.getRequestMethod().equals("GET")) ex.sendResponseHeaders(200, -1);
            else ex.sendResponseHeaders(405, -1);
        });
        server.start();
    }
    static boolean isTags(String path) { return path.equals("/tags"); }
    static void noop() {}
}
"""
    got = _score(tmp_path, {"Main.java": main},
                 ["GET /bookmarks", "POST /bookmarks", "PUT /bookmarks", "GET /tags"])
    assert got == {"GET /bookmarks": "Main.java:10", "POST /bookmarks": None,
                   "PUT /bookmarks": None, "GET /tags": None}
