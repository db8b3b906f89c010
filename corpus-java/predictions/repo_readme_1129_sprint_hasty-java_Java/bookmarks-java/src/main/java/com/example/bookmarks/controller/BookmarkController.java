package com.example.bookmarks.controller;

import com.example.bookmarks.service.ApiException;
import com.example.bookmarks.service.BookmarkService;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Routes HTTP requests to the bookmark service and renders JSON responses.
 */
public class BookmarkController extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final String JSON = "application/json";

    private final transient BookmarkService service;
    private final transient ObjectMapper mapper = new ObjectMapper();

    public BookmarkController(BookmarkService service) {
        this.service = service;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        try {
            route(req, resp);
        } catch (ApiException e) {
            writeError(resp, e.getStatus(), e.getMessage());
        } catch (RuntimeException e) {
            writeError(resp, 500, "internal server error");
        }
    }

    private void route(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String method = req.getMethod();
        String path = req.getRequestURI();
        if (path == null || path.isEmpty()) {
            path = "/";
        }
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }

        if (path.equals("/health")) {
            requireMethod(method, "GET");
            writeJson(resp, 200, Map.of("status", "ok"));
            return;
        }

        if (path.equals("/tags")) {
            requireMethod(method, "GET");
            writeJson(resp, 200, service.tagCounts());
            return;
        }

        if (path.equals("/bookmarks")) {
            switch (method) {
                case "GET":
                    writeJson(resp, 200, service.list(req.getParameter("tag")));
                    return;
                case "POST":
                    writeJson(resp, 201, service.create(readBody(req)));
                    return;
                default:
                    throw new ApiException(405, "method not allowed");
            }
        }

        if (path.startsWith("/bookmarks/")) {
            String idPart = path.substring("/bookmarks/".length());
            long id = parseId(idPart);
            switch (method) {
                case "GET":
                    writeJson(resp, 200, service.get(id));
                    return;
                case "PUT":
                    service.get(id);
                    writeJson(resp, 200, service.update(id, readBody(req)));
                    return;
                case "DELETE":
                    service.delete(id);
                    resp.setStatus(204);
                    return;
                default:
                    throw new ApiException(405, "method not allowed");
            }
        }

        throw ApiException.notFound("not found");
    }

    private static void requireMethod(String actual, String expected) {
        if (!expected.equals(actual)) {
            throw new ApiException(405, "method not allowed");
        }
    }

    private static long parseId(String raw) {
        if (raw.isEmpty() || raw.contains("/")) {
            throw ApiException.notFound("bookmark not found");
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw ApiException.notFound("bookmark not found");
        }
    }

    private JsonNode readBody(HttpServletRequest req) throws IOException {
        byte[] bytes;
        try (InputStream in = req.getInputStream()) {
            bytes = in.readAllBytes();
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            throw ApiException.badRequest("request body must be valid JSON");
        }
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("request body must be valid JSON");
        }
    }

    private void writeJson(HttpServletResponse resp, int status, Object body) throws IOException {
        byte[] bytes = mapper.writeValueAsBytes(body);
        resp.setStatus(status);
        resp.setContentType(JSON);
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    private void writeError(HttpServletResponse resp, int status, String message) throws IOException {
        if (resp.isCommitted()) {
            return;
        }
        resp.reset();
        writeJson(resp, status, Map.of("error", message == null ? "error" : message));
    }
}
