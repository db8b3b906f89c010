package bookmarks.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/** Small HTTP + assertion helper for the black-box tests (JDK HttpClient only). */
final class Api {

    static final String BASE_URL = resolveBaseUrl();

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private static final Pattern ISO_TIMESTAMP =
            Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}(:?\\d{2})?)?$");

    private Api() {
    }

    private static String resolveBaseUrl() {
        String v = System.getProperty("BASE_URL");
        if (v == null || v.isBlank() || v.startsWith("${")) {
            v = System.getenv("BASE_URL");
        }
        if (v == null || v.isBlank()) {
            v = "http://localhost:8080";
        }
        v = v.trim();
        while (v.endsWith("/")) {
            v = v.substring(0, v.length() - 1);
        }
        return v;
    }

    /** An HTTP response: status, body text, and headers. */
    static final class Resp {
        final int status;
        final String body;
        final HttpResponse<String> raw;

        Resp(HttpResponse<String> raw) {
            this.raw = raw;
            this.status = raw.statusCode();
            this.body = raw.body();
        }

        String contentType() {
            return raw.headers().firstValue("Content-Type").orElse("");
        }

        Object json() {
            try {
                return Json.parse(body);
            } catch (IllegalArgumentException e) {
                throw new AssertionError("Response body is not valid JSON (status " + status + "): " + body, e);
            }
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> object() {
            Object v = json();
            assertInstanceOf(Map.class, v, "expected a JSON object, got: " + body);
            return (Map<String, Object>) v;
        }

        @SuppressWarnings("unchecked")
        List<Object> array() {
            Object v = json();
            assertInstanceOf(List.class, v, "expected a JSON array, got: " + body);
            return (List<Object>) v;
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    // ------------------------------------------------------------------ HTTP

    static Resp send(String method, String path, String jsonBody) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(BASE_URL + path))
                .timeout(Duration.ofSeconds(20))
                .header("Accept", "application/json");
        if (jsonBody == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json");
            b.method(method, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
        }
        try {
            return new Resp(CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new AssertionError("HTTP " + method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static Resp get(String path) {
        return send("GET", path, null);
    }

    static Resp post(String path, String body) {
        return send("POST", path, body);
    }

    static Resp put(String path, String body) {
        return send("PUT", path, body);
    }

    static Resp delete(String path) {
        return send("DELETE", path, null);
    }

    static String enc(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    // --------------------------------------------------------------- builders

    /** A short unique lower-case token (letters and digits only). */
    static String unique() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    }

    static String body(String url, String title, String... tags) {
        return "{\"url\":" + Json.quote(url) + ",\"title\":" + Json.quote(title)
                + ",\"tags\":" + Json.stringArray(tags) + "}";
    }

    static String bodyNoTags(String url, String title) {
        return "{\"url\":" + Json.quote(url) + ",\"title\":" + Json.quote(title) + "}";
    }

    /** Creates a bookmark, asserting 201, and returns the response object. */
    static Map<String, Object> create(String url, String title, String... tags) {
        Resp r = post("/bookmarks", body(url, title, tags));
        assertEquals(201, r.status, "POST /bookmarks should return 201: " + r);
        Map<String, Object> bm = r.object();
        assertBookmarkShape(bm);
        return bm;
    }

    // ------------------------------------------------------------- accessors

    static long id(Map<String, Object> bm) {
        Object id = bm.get("id");
        assertInstanceOf(Long.class, id, "id must be a JSON integer: " + bm);
        return (Long) id;
    }

    @SuppressWarnings("unchecked")
    static List<String> tags(Map<String, Object> bm) {
        Object t = bm.get("tags");
        assertInstanceOf(List.class, t, "tags must be a JSON array: " + bm);
        List<String> out = new ArrayList<>();
        for (Object o : (List<Object>) t) {
            assertInstanceOf(String.class, o, "each tag must be a string: " + bm);
            out.add((String) o);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> objects(List<Object> arr) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : arr) {
            assertInstanceOf(Map.class, o, "array element must be a JSON object: " + o);
            out.add((Map<String, Object>) o);
        }
        return out;
    }

    /** GET /bookmarks (optionally with ?tag=), asserting 200 and an array of bookmarks. */
    static List<Map<String, Object>> list(String tag) {
        Resp r = get(tag == null ? "/bookmarks" : "/bookmarks?tag=" + enc(tag));
        assertEquals(200, r.status, "GET /bookmarks should return 200: " + r);
        assertJsonContentType(r);
        List<Map<String, Object>> items = objects(r.array());
        for (Map<String, Object> bm : items) {
            assertBookmarkShape(bm);
        }
        return items;
    }

    static Map<String, Object> findById(List<Map<String, Object>> items, long id) {
        for (Map<String, Object> bm : items) {
            if (id(bm) == id) {
                return bm;
            }
        }
        return null;
    }

    /** GET /tags, asserting 200 and an array of {tag, count}. */
    static List<Map<String, Object>> tagCounts() {
        Resp r = get("/tags");
        assertEquals(200, r.status, "GET /tags should return 200: " + r);
        assertJsonContentType(r);
        List<Map<String, Object>> items = objects(r.array());
        for (Map<String, Object> e : items) {
            assertInstanceOf(String.class, e.get("tag"), "tag must be a string: " + e);
            assertInstanceOf(Long.class, e.get("count"), "count must be an integer: " + e);
        }
        return items;
    }

    /** Count for a tag in GET /tags, or null if absent. */
    static Long countOf(List<Map<String, Object>> counts, String tag) {
        Long found = null;
        for (Map<String, Object> e : counts) {
            if (tag.equals(e.get("tag"))) {
                if (found != null) {
                    fail("tag '" + tag + "' listed more than once in GET /tags: " + counts);
                }
                found = (Long) e.get("count");
            }
        }
        return found;
    }

    // ------------------------------------------------------------ assertions

    static void assertJsonContentType(Resp r) {
        String ct = r.contentType().toLowerCase(Locale.ROOT);
        assertTrue(ct.startsWith("application/json"),
                "Content-Type should be application/json but was '" + r.contentType() + "' for " + r);
    }

    static void assertBookmarkShape(Map<String, Object> bm) {
        assertNotNull(bm);
        assertTrue(bm.containsKey("id"), "bookmark has no id: " + bm);
        assertTrue(id(bm) >= 1, "ids start from 1: " + bm);
        assertInstanceOf(String.class, bm.get("url"), "url must be a string: " + bm);
        assertInstanceOf(String.class, bm.get("title"), "title must be a string: " + bm);
        tags(bm);
        Object created = bm.get("createdAt");
        assertInstanceOf(String.class, created, "createdAt must be a string: " + bm);
        assertIsoTimestamp((String) created);
    }

    static void assertIsoTimestamp(String v) {
        try {
            DateTimeFormatter.ISO_DATE_TIME.parse(v);
            return;
        } catch (DateTimeParseException ignored) {
            // fall through to a looser ISO-8601 shape check
        }
        assertTrue(ISO_TIMESTAMP.matcher(v).matches(), "createdAt is not an ISO-8601 timestamp: " + v);
    }

    /** Asserts the status and the {"error": "<message>"} body. */
    static void assertError(Resp r, int status) {
        assertEquals(status, r.status, "unexpected status: " + r);
        assertJsonContentType(r);
        Map<String, Object> o = r.object();
        assertTrue(o.containsKey("error"), "error response must have an 'error' field: " + r.body);
        assertInstanceOf(String.class, o.get("error"), "'error' must be a string: " + r.body);
    }
}
