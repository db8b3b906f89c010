package com.example.bookmarks;

import com.example.bookmarks.server.BookmarksServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiIntegrationTest {

    private static BookmarksServer server;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        server = Application.create("127.0.0.1", 0);
        server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    private static HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Content-Type", "application/json")
                .method(method, publisher)
                .build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void fullLifecycle() throws Exception {
        assertEquals(200, call("GET", "/health", null).statusCode());

        HttpResponse<String> created = call("POST", "/bookmarks",
                "{\"url\":\"https://a.io\",\"title\":\"A\",\"tags\":[\"Zed\",\"alpha\",\"zed\"]}");
        assertEquals(201, created.statusCode());
        assertTrue(created.body().contains("\"tags\":[\"zed\",\"alpha\"]"), created.body());
        String id = created.body().replaceAll("^\\{\"id\":(\\d+).*$", "$1");

        assertEquals(200, call("GET", "/bookmarks/" + id, null).statusCode());
        assertEquals(404, call("GET", "/bookmarks/abc", null).statusCode());
        assertTrue(call("GET", "/bookmarks?tag=ZED", null).body().contains("https://a.io"));
        assertEquals("[{\"tag\":\"alpha\",\"count\":1},{\"tag\":\"zed\",\"count\":1}]",
                call("GET", "/tags", null).body());

        HttpResponse<String> updated = call("PUT", "/bookmarks/" + id, "{\"url\":\"http://b.io\",\"title\":\"B\"}");
        assertEquals(200, updated.statusCode());
        assertTrue(updated.body().contains("\"tags\":[]"));
        assertEquals(400, call("PUT", "/bookmarks/" + id, "nope").statusCode());
        assertEquals(404, call("PUT", "/bookmarks/999", "{\"url\":\"http://b.io\",\"title\":\"B\"}").statusCode());

        assertEquals(204, call("DELETE", "/bookmarks/" + id, null).statusCode());
        HttpResponse<String> gone = call("DELETE", "/bookmarks/" + id, null);
        assertEquals(404, gone.statusCode());
        assertTrue(gone.body().contains("\"error\""));
    }
}
