package com.example.bookmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class BookmarkHandler implements HttpHandler {
    private BookmarkStore store;
    private ObjectMapper mapper = new ObjectMapper();

    public BookmarkHandler(BookmarkStore store) {
        this.store = store;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        try {
            if (path.equals("/health") && method.equals("GET")) {
                sendJson(exchange, 200, "{\"status\": \"ok\"}");
            } else if (path.equals("/tags") && method.equals("GET")) {
                handleTags(exchange);
            } else if (path.equals("/bookmarks") || path.equals("/bookmarks/")) {
                if (method.equals("GET")) {
                    handleList(exchange);
                } else if (method.equals("POST")) {
                    handleCreate(exchange);
                } else {
                    sendError(exchange, 405, "method not allowed");
                }
            } else if (path.startsWith("/bookmarks/")) {
                String idStr = path.substring("/bookmarks/".length());
                int id;
                try {
                    id = Integer.parseInt(idStr);
                } catch (NumberFormatException e) {
                    sendError(exchange, 404, "bookmark not found");
                    return;
                }
                if (method.equals("GET")) {
                    Bookmark b = store.get(id);
                    if (b == null) {
                        sendError(exchange, 404, "bookmark not found");
                    } else {
                        sendJson(exchange, 200, b.toJson());
                    }
                } else if (method.equals("PUT")) {
                    handleUpdate(exchange, id);
                } else if (method.equals("DELETE")) {
                    if (store.delete(id)) {
                        exchange.sendResponseHeaders(204, -1);
                        exchange.close();
                    } else {
                        sendError(exchange, 404, "bookmark not found");
                    }
                } else {
                    sendError(exchange, 405, "method not allowed");
                }
            } else {
                sendError(exchange, 404, "not found");
            }
        } catch (Exception e) {
            e.printStackTrace();
            sendError(exchange, 500, "internal error");
        }
    }

    private void handleList(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        String tag = null;
        if (query != null) {
            for (String part : query.split("&")) {
                String[] kv = part.split("=");
                if (kv.length == 2 && kv[0].equals("tag")) {
                    tag = kv[1];
                }
            }
        }
        List<Bookmark> list = store.list(tag);
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(list.get(i).toJson());
        }
        sb.append("]");
        sendJson(exchange, 200, sb.toString());
    }

    private void handleTags(HttpExchange exchange) throws IOException {
        Map<String, Integer> counts = store.tagCounts();
        StringBuilder sb = new StringBuilder("[");
        boolean first = true;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (!first) sb.append(", ");
            first = false;
            sb.append("{\"tag\": \"").append(Bookmark.escape(e.getKey())).append("\", \"count\": ")
              .append(e.getValue()).append("}");
        }
        sb.append("]");
        sendJson(exchange, 200, sb.toString());
    }

    private void handleCreate(HttpExchange exchange) throws IOException {
        JsonNode body = readBody(exchange);
        String err = validate(body);
        if (err != null) {
            sendError(exchange, 400, err);
            return;
        }
        Bookmark b = store.create(body.get("url").asText(), body.get("title").asText(), parseTags(body));
        sendJson(exchange, 201, b.toJson());
    }

    private void handleUpdate(HttpExchange exchange, int id) throws IOException {
        if (store.get(id) == null) {
            sendError(exchange, 404, "bookmark not found");
            return;
        }
        JsonNode body = readBody(exchange);
        String err = validate(body);
        if (err != null) {
            sendError(exchange, 400, err);
            return;
        }
        Bookmark b = store.update(id, body.get("url").asText(), body.get("title").asText(), parseTags(body));
        sendJson(exchange, 200, b.toJson());
    }

    private JsonNode readBody(HttpExchange exchange) {
        try {
            InputStream is = exchange.getRequestBody();
            String text = new String(is.readAllBytes(), StandardCharsets.UTF_8);
            return mapper.readTree(text);
        } catch (Exception e) {
            return null;
        }
    }

    private String validate(JsonNode body) {
        if (body == null || !body.isObject()) {
            return "invalid JSON";
        }
        JsonNode url = body.get("url");
        JsonNode title = body.get("title");
        if (url == null || !url.isTextual()) {
            return "url is required";
        }
        if (title == null || !title.isTextual()) {
            return "title is required";
        }
        String u = url.asText();
        if (!u.startsWith("http://") && !u.startsWith("https://")) {
            return "url must start with http:// or https://";
        }
        String t = title.asText();
        if (t.length() < 1 || t.length() > 200) {
            return "title must be 1 to 200 characters";
        }
        JsonNode tags = body.get("tags");
        if (tags != null && !tags.isNull()) {
            if (!tags.isArray()) {
                return "tags must be an array";
            }
            for (JsonNode tag : tags) {
                if (!tag.isTextual()) {
                    return "tags must be strings";
                }
            }
        }
        return null;
    }

    private List<String> parseTags(JsonNode body) {
        List<String> result = new ArrayList<>();
        JsonNode tags = body.get("tags");
        if (tags != null && tags.isArray()) {
            for (JsonNode tag : tags) {
                String t = tag.asText().toLowerCase();
                if (!result.contains(t)) {
                    result.add(t);
                }
            }
        }
        return result;
    }

    private void sendJson(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        OutputStream os = exchange.getResponseBody();
        os.write(bytes);
        os.close();
    }

    private void sendError(HttpExchange exchange, int status, String message) throws IOException {
        sendJson(exchange, status, "{\"error\": \"" + Bookmark.escape(message) + "\"}");
    }
}
