package app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Shared HTTP helpers for the JDK built-in HTTP server: reading request bodies,
 * writing JSON responses (always with {@code Content-Type: application/json}),
 * empty 204 responses, {@code {"error": "<message>"}} bodies and query parsing.
 */
public final class JsonHttp {

    /** Shared Jackson mapper used for all JSON (de)serialization. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    public static final String CONTENT_TYPE = "application/json";

    private JsonHttp() {
    }

    /** Returns the shared ObjectMapper. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    // ------------------------------------------------------------------ reading

    /** Reads the whole request body as a UTF-8 string (empty string if none). */
    public static String readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            if (in == null) {
                return "";
            }
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int n;
            while ((n = in.read(chunk)) != -1) {
                buf.write(chunk, 0, n);
            }
            return buf.toString(StandardCharsets.UTF_8);
        }
    }

    /** Alias of {@link #readBody(HttpExchange)}. */
    public static String readBodyAsString(HttpExchange exchange) throws IOException {
        return readBody(exchange);
    }

    /**
     * Parses a JSON string into a tree. Throws {@link JsonProcessingException}
     * (a subclass of IOException) if the text is not valid JSON.
     */
    public static JsonNode parse(String body) throws JsonProcessingException {
        return MAPPER.readTree(body == null ? "" : body);
    }

    /** Reads the request body and parses it as JSON. */
    public static JsonNode readJson(HttpExchange exchange) throws IOException {
        return parse(readBody(exchange));
    }

    // ------------------------------------------------------------------ writing

    /** Serializes {@code body} with Jackson (a String is assumed to already be JSON). */
    public static String toJson(Object body) {
        if (body instanceof String) {
            return (String) body;
        }
        try {
            return MAPPER.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize response", e);
        }
    }

    /** Writes {@code body} serialized as JSON with the given status code. */
    public static void sendJson(HttpExchange exchange, int status, Object body) throws IOException {
        sendRaw(exchange, status, toJson(body));
    }

    /** Alias of {@link #sendJson(HttpExchange, int, Object)}. */
    public static void writeJson(HttpExchange exchange, int status, Object body) throws IOException {
        sendJson(exchange, status, body);
    }

    /** Alias of {@link #sendJson(HttpExchange, int, Object)}. */
    public static void respond(HttpExchange exchange, int status, Object body) throws IOException {
        sendJson(exchange, status, body);
    }

    /** Alias of {@link #sendJson(HttpExchange, int, Object)}. */
    public static void json(HttpExchange exchange, int status, Object body) throws IOException {
        sendJson(exchange, status, body);
    }

    /** Writes a pre-serialized JSON string with the given status code. */
    public static void sendRaw(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = (json == null ? "" : json).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        if (bytes.length == 0) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        } finally {
            exchange.close();
        }
    }

    /** Sends a response with the given status and no body (e.g. 204). */
    public static void sendEmpty(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    /** Sends {@code 204 No Content} with no body. */
    public static void sendNoContent(HttpExchange exchange) throws IOException {
        sendEmpty(exchange, 204);
    }

    /** Alias of {@link #sendNoContent(HttpExchange)}. */
    public static void noContent(HttpExchange exchange) throws IOException {
        sendNoContent(exchange);
    }

    /** Builds the {@code {"error": "<message>"}} body as a map. */
    public static Map<String, String> errorBody(String message) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", message == null ? "" : message);
        return body;
    }

    /** Sends {@code {"error": "<message>"}} with the given status code. */
    public static void sendError(HttpExchange exchange, int status, String message) throws IOException {
        sendJson(exchange, status, errorBody(message));
    }

    /** Alias of {@link #sendError(HttpExchange, int, String)}. */
    public static void writeError(HttpExchange exchange, int status, String message) throws IOException {
        sendError(exchange, status, message);
    }

    /** Alias of {@link #sendError(HttpExchange, int, String)}. */
    public static void error(HttpExchange exchange, int status, String message) throws IOException {
        sendError(exchange, status, message);
    }

    // ------------------------------------------------------------------ query

    /** Parses the raw query of the request URI into a map (first value wins). */
    public static Map<String, String> queryParams(HttpExchange exchange) {
        return parseQuery(exchange.getRequestURI());
    }

    /** Parses the raw query of a URI into a map (first value wins). */
    public static Map<String, String> parseQuery(URI uri) {
        return parseQuery(uri == null ? null : uri.getRawQuery());
    }

    /** Parses a raw (URL-encoded) query string into a map (first value wins). */
    public static Map<String, String> parseQuery(String rawQuery) {
        Map<String, String> params = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq >= 0 ? pair.substring(0, eq) : pair;
            String value = eq >= 0 ? pair.substring(eq + 1) : "";
            key = decode(key);
            value = decode(value);
            params.putIfAbsent(key, value);
        }
        return params;
    }

    /** Returns one query parameter of the request, or null if absent. */
    public static String queryParam(HttpExchange exchange, String name) {
        return queryParams(exchange).get(name);
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
