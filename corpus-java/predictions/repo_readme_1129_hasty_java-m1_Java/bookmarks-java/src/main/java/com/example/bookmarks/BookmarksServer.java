package com.example.bookmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

public class BookmarksServer {

    static final ObjectMapper MAPPER = new ObjectMapper();

    static class Bookmark {
        long id;
        String url;
        String title;
        List<String> tags;
        String createdAt;

        ObjectNode toJson() {
            ObjectNode n = MAPPER.createObjectNode();
            n.put("id", id);
            n.put("url", url);
            n.put("title", title);
            ArrayNode arr = n.putArray("tags");
            for (String t : tags) arr.add(t);
            n.put("createdAt", createdAt);
            return n;
        }
    }

    static class BadRequest extends Exception {
        BadRequest(String msg) { super(msg); }
    }

    static class Input {
        String url;
        String title;
        List<String> tags;
    }

    private final TreeMap<Long, Bookmark> store = new TreeMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    public static void main(String[] args) throws IOException {
        new BookmarksServer().start(8080);
    }

    public HttpServer start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        System.out.println("Bookmarks service listening on port " + port);
        return server;
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
            String path = ex.getRequestURI().getPath();
            if (path.length() > 1 && path.endsWith("/")) path = path.substring(0, path.length() - 1);

            if (path.equals("/health")) {
                if (!method.equals("GET")) { error(ex, 405, "method not allowed"); return; }
                ObjectNode n = MAPPER.createObjectNode();
                n.put("status", "ok");
                send(ex, 200, n);
                return;
            }
            if (path.equals("/tags")) {
                if (!method.equals("GET")) { error(ex, 405, "method not allowed"); return; }
                tagCounts(ex);
                return;
            }
            if (path.equals("/bookmarks")) {
                if (method.equals("GET")) list(ex);
                else if (method.equals("POST")) create(ex);
                else error(ex, 405, "method not allowed");
                return;
            }
            if (path.startsWith("/bookmarks/")) {
                String idStr = path.substring("/bookmarks/".length());
                Long id = null;
                try { id = Long.parseLong(idStr); } catch (NumberFormatException e) { id = null; }
                if (method.equals("GET")) {
                    Bookmark b = id == null ? null : get(id);
                    if (b == null) { error(ex, 404, "bookmark not found"); return; }
                    send(ex, 200, b.toJson());
                } else if (method.equals("PUT")) {
                    update(ex, id);
                } else if (method.equals("DELETE")) {
                    boolean removed;
                    synchronized (store) { removed = id != null && store.remove(id) != null; }
                    if (!removed) { error(ex, 404, "bookmark not found"); return; }
                    ex.sendResponseHeaders(204, -1);
                    ex.close();
                } else {
                    error(ex, 405, "method not allowed");
                }
                return;
            }
            error(ex, 404, "not found");
        } catch (Exception e) {
            e.printStackTrace();
            try { error(ex, 500, "internal server error"); } catch (Exception ignored) { }
        }
    }

    private Bookmark get(long id) {
        synchronized (store) { return store.get(id); }
    }

    private void list(HttpExchange ex) throws IOException {
        String tag = queryParam(ex.getRequestURI().getRawQuery(), "tag");
        String want = tag == null ? null : tag.toLowerCase(Locale.ROOT);
        ArrayNode arr = MAPPER.createArrayNode();
        synchronized (store) {
            for (Bookmark b : store.values()) {
                if (want == null || b.tags.contains(want)) arr.add(b.toJson());
            }
        }
        send(ex, 200, arr);
    }

    private void tagCounts(HttpExchange ex) throws IOException {
        TreeMap<String, Integer> counts = new TreeMap<>();
        synchronized (store) {
            for (Bookmark b : store.values()) {
                for (String t : b.tags) counts.merge(t, 1, Integer::sum);
            }
        }
        ArrayNode arr = MAPPER.createArrayNode();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            ObjectNode n = arr.addObject();
            n.put("tag", e.getKey());
            n.put("count", e.getValue());
        }
        send(ex, 200, arr);
    }

    private void create(HttpExchange ex) throws IOException {
        Input in;
        try {
            in = parseInput(ex);
        } catch (BadRequest e) {
            error(ex, 400, e.getMessage());
            return;
        }
        Bookmark b = new Bookmark();
        b.url = in.url;
        b.title = in.title;
        b.tags = in.tags;
        b.createdAt = Instant.now().toString();
        synchronized (store) {
            b.id = nextId.getAndIncrement();
            store.put(b.id, b);
        }
        send(ex, 201, b.toJson());
    }

    private void update(HttpExchange ex, Long id) throws IOException {
        Input in;
        try {
            in = parseInput(ex);
        } catch (BadRequest e) {
            // 404 takes precedence if the bookmark doesn't exist
            if (id == null || get(id) == null) { error(ex, 404, "bookmark not found"); return; }
            error(ex, 400, e.getMessage());
            return;
        }
        Bookmark b;
        synchronized (store) {
            b = id == null ? null : store.get(id);
            if (b != null) {
                b.url = in.url;
                b.title = in.title;
                b.tags = in.tags;
            }
        }
        if (b == null) { error(ex, 404, "bookmark not found"); return; }
        send(ex, 200, b.toJson());
    }

    private Input parseInput(HttpExchange ex) throws IOException, BadRequest {
        byte[] body;
        try (InputStream is = ex.getRequestBody()) {
            body = is.readAllBytes();
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (Exception e) {
            throw new BadRequest("invalid JSON");
        }
        if (root == null || root.isMissingNode() || !root.isObject()) {
            throw new BadRequest("request body must be a JSON object");
        }
        JsonNode urlNode = root.get("url");
        if (urlNode == null || urlNode.isNull()) throw new BadRequest("url is required");
        if (!urlNode.isTextual()) throw new BadRequest("url must be a string");
        String url = urlNode.asText();
        if (!(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new BadRequest("url must start with http:// or https://");
        }
        JsonNode titleNode = root.get("title");
        if (titleNode == null || titleNode.isNull()) throw new BadRequest("title is required");
        if (!titleNode.isTextual()) throw new BadRequest("title must be a string");
        String title = titleNode.asText();
        if (title.isEmpty()) throw new BadRequest("title must not be empty");
        if (title.codePointCount(0, title.length()) > 200) throw new BadRequest("title must be at most 200 characters");

        LinkedHashSet<String> tags = new LinkedHashSet<>();
        JsonNode tagsNode = root.get("tags");
        if (tagsNode != null && !tagsNode.isNull()) {
            if (!tagsNode.isArray()) throw new BadRequest("tags must be an array of strings");
            for (JsonNode t : tagsNode) {
                if (!t.isTextual()) throw new BadRequest("tags must be an array of strings");
                tags.add(t.asText().toLowerCase(Locale.ROOT));
            }
        }
        Input in = new Input();
        in.url = url;
        in.title = title;
        in.tags = new ArrayList<>(tags);
        return in;
    }

    private static String queryParam(String rawQuery, String name) {
        if (rawQuery == null || rawQuery.isEmpty()) return null;
        for (String part : rawQuery.split("&")) {
            int eq = part.indexOf('=');
            String k = eq < 0 ? part : part.substring(0, eq);
            String v = eq < 0 ? "" : part.substring(eq + 1);
            k = URLDecoder.decode(k, StandardCharsets.UTF_8);
            if (k.equals(name)) return URLDecoder.decode(v, StandardCharsets.UTF_8);
        }
        return null;
    }

    private static void error(HttpExchange ex, int status, String message) throws IOException {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("error", message);
        send(ex, status, n);
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = MAPPER.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }
}
