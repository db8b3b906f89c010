package com.example.bookmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class BookmarkServlet extends HttpServlet {

    private final BookmarkStore store;
    private final ObjectMapper mapper = new ObjectMapper();

    public BookmarkServlet(BookmarkStore store) {
        this.store = store;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getPathInfo();
        if (path == null || path.equals("/")) {
            String tag = req.getParameter("tag");
            List<Bookmark> list = store.list(tag);
            sendJson(resp, 200, list);
            return;
        }
        Integer id = parseId(path);
        if (id == null) {
            sendError(resp, 404, "Bookmark not found");
            return;
        }
        Bookmark b = store.get(id);
        if (b == null) {
            sendError(resp, 404, "Bookmark not found");
            return;
        }
        sendJson(resp, 200, b);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getPathInfo();
        if (path != null && !path.equals("/")) {
            sendError(resp, 404, "Not found");
            return;
        }
        JsonNode body;
        try {
            body = mapper.readTree(req.getInputStream());
        } catch (Exception e) {
            sendError(resp, 400, "Invalid JSON");
            return;
        }
        String error = validate(body);
        if (error != null) {
            sendError(resp, 400, error);
            return;
        }
        Bookmark b = store.create(body.get("url").asText(), body.get("title").asText(), parseTags(body));
        sendJson(resp, 201, b);
    }

    @Override
    protected void doPut(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Integer id = parseId(req.getPathInfo());
        if (id == null || store.get(id) == null) {
            sendError(resp, 404, "Bookmark not found");
            return;
        }
        JsonNode body;
        try {
            body = mapper.readTree(req.getInputStream());
        } catch (Exception e) {
            sendError(resp, 400, "Invalid JSON");
            return;
        }
        String error = validate(body);
        if (error != null) {
            sendError(resp, 400, error);
            return;
        }
        Bookmark b = store.update(id, body.get("url").asText(), body.get("title").asText(), parseTags(body));
        if (b == null) {
            sendError(resp, 404, "Bookmark not found");
            return;
        }
        sendJson(resp, 200, b);
    }

    @Override
    protected void doDelete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Integer id = parseId(req.getPathInfo());
        if (id == null || !store.delete(id)) {
            sendError(resp, 404, "Bookmark not found");
            return;
        }
        resp.setStatus(204);
    }

    private String validate(JsonNode body) {
        if (body == null || !body.isObject()) {
            return "Invalid JSON";
        }
        JsonNode url = body.get("url");
        JsonNode title = body.get("title");
        if (url == null || title == null) {
            return "url and title are required";
        }
        if (!url.isTextual() || !title.isTextual()) {
            return "url and title must be strings";
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
        if (tags != null) {
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
        List<String> tags = new ArrayList<>();
        JsonNode node = body.get("tags");
        if (node != null && node.isArray()) {
            for (JsonNode t : node) {
                String tag = t.asText().toLowerCase();
                if (!tags.contains(tag)) {
                    tags.add(tag);
                }
            }
        }
        return tags;
    }

    private Integer parseId(String path) {
        if (path == null) {
            return null;
        }
        String s = path.startsWith("/") ? path.substring(1) : path;
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void sendJson(HttpServletResponse resp, int status, Object obj) throws IOException {
        resp.setStatus(status);
        resp.setContentType("application/json");
        mapper.writeValue(resp.getWriter(), obj);
    }

    private void sendError(HttpServletResponse resp, int status, String message) throws IOException {
        Map<String, String> err = new HashMap<>();
        err.put("error", message);
        sendJson(resp, status, err);
    }
}
