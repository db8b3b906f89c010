package app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Routes /health, /bookmarks, /bookmarks/{id} and /tags by method and path to the store.
 * Non-numeric or unknown ids map to 404, unsupported methods to 405.
 */
public class BookmarkHandler implements HttpHandler {

    private final BookmarkStore store;

    public BookmarkHandler(BookmarkStore store) {
        this.store = store;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            route(exchange);
        } catch (ApiException e) {
            JsonHttp.sendError(exchange, e.getStatus(), e.getMessage());
        } catch (Exception e) {
            JsonHttp.sendError(exchange, 500, "internal server error");
        } finally {
            exchange.close();
        }
    }

    private void route(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod().toUpperCase();
        String path = exchange.getRequestURI().getPath();
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }

        if (path.equals("/health")) {
            requireMethod(method, "GET");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", "ok");
            JsonHttp.sendJson(exchange, 200, body);
            return;
        }

        if (path.equals("/tags")) {
            requireMethod(method, "GET");
            JsonHttp.sendJson(exchange, 200, store.tagCounts());
            return;
        }

        if (path.equals("/bookmarks")) {
            switch (method) {
                case "GET": {
                    Map<String, String> query = JsonHttp.parseQuery(exchange.getRequestURI().getRawQuery());
                    String tag = query.get("tag");
                    JsonHttp.sendJson(exchange, 200, store.list(tag));
                    return;
                }
                case "POST": {
                    String body = JsonHttp.readBody(exchange);
                    var input = BookmarkValidator.parse(body);
                    Bookmark created = store.create(input.url(), input.title(), input.tags());
                    JsonHttp.sendJson(exchange, 201, created);
                    return;
                }
                default:
                    throw new ApiException(405, "method not allowed");
            }
        }

        if (path.startsWith("/bookmarks/")) {
            String idPart = path.substring("/bookmarks/".length());
            if (idPart.isEmpty() || idPart.contains("/")) {
                throw new ApiException(404, "not found");
            }
            int id = parseId(idPart);
            switch (method) {
                case "GET": {
                    Bookmark bookmark = store.get(id)
                            .orElseThrow(() -> new ApiException(404, "bookmark not found"));
                    JsonHttp.sendJson(exchange, 200, bookmark);
                    return;
                }
                case "PUT": {
                    // 404 for an unknown id takes precedence over body validation.
                    if (store.get(id).isEmpty()) {
                        throw new ApiException(404, "bookmark not found");
                    }
                    String body = JsonHttp.readBody(exchange);
                    var input = BookmarkValidator.parse(body);
                    Bookmark updated = store.replace(id, input.url(), input.title(), input.tags())
                            .orElseThrow(() -> new ApiException(404, "bookmark not found"));
                    JsonHttp.sendJson(exchange, 200, updated);
                    return;
                }
                case "DELETE": {
                    if (!store.delete(id)) {
                        throw new ApiException(404, "bookmark not found");
                    }
                    JsonHttp.sendNoContent(exchange);
                    return;
                }
                default:
                    throw new ApiException(405, "method not allowed");
            }
        }

        throw new ApiException(404, "not found");
    }

    private static void requireMethod(String method, String expected) {
        if (!expected.equals(method)) {
            throw new ApiException(405, "method not allowed");
        }
    }

    private static int parseId(String raw) {
        if (!raw.matches("\\d{1,9}")) {
            throw new ApiException(404, "bookmark not found");
        }
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new ApiException(404, "bookmark not found");
        }
    }
}
