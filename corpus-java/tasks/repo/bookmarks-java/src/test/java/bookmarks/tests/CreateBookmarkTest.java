package bookmarks.tests;

import static bookmarks.tests.Api.assertError;
import static bookmarks.tests.Api.assertJsonContentType;
import static bookmarks.tests.Api.body;
import static bookmarks.tests.Api.bodyNoTags;
import static bookmarks.tests.Api.create;
import static bookmarks.tests.Api.id;
import static bookmarks.tests.Api.list;
import static bookmarks.tests.Api.post;
import static bookmarks.tests.Api.tags;
import static bookmarks.tests.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Health endpoint and POST /bookmarks: success shape, tag normalisation, ids, and 400 validation. */
class CreateBookmarkTest {

    @Test
    void healthReturnsOk() {
        Api.Resp r = Api.get("/health");
        assertEquals(200, r.status, r.toString());
        assertJsonContentType(r);
        Map<String, Object> o = r.object();
        assertEquals("ok", o.get("status"), r.body);
    }

    @Test
    void createReturns201WithStoredBookmark() {
        String u = unique();
        String url = "https://example.com/" + u;
        String title = "Create " + u;
        Api.Resp r = post("/bookmarks", body(url, title, "java", "web"));
        assertEquals(201, r.status, r.toString());
        assertJsonContentType(r);
        Map<String, Object> bm = r.object();
        Api.assertBookmarkShape(bm);
        assertEquals(url, bm.get("url"));
        assertEquals(title, bm.get("title"));
        assertEquals(List.of("java", "web"), tags(bm));
    }

    @Test
    void createWithoutTagsDefaultsToEmptyList() {
        String u = unique();
        Api.Resp r = post("/bookmarks", bodyNoTags("http://example.org/" + u, "No tags " + u));
        assertEquals(201, r.status, r.toString());
        Map<String, Object> bm = r.object();
        Api.assertBookmarkShape(bm);
        assertEquals(List.of(), tags(bm));
        assertEquals("http://example.org/" + u, bm.get("url"));
    }

    @Test
    void createStoresTagsLowerCasedDeduplicatedInFirstGivenOrder() {
        String u = unique();
        Map<String, Object> bm = create("https://example.com/" + u, "Tags " + u,
                "Zeta" + u, "alpha" + u, "ZETA" + u, "Mid" + u, "ALPHA" + u, "zeta" + u);
        assertEquals(List.of("zeta" + u, "alpha" + u, "mid" + u), tags(bm));

        // the stored bookmark carries the same normalised tags
        Api.Resp g = Api.get("/bookmarks/" + id(bm));
        assertEquals(200, g.status, g.toString());
        assertEquals(List.of("zeta" + u, "alpha" + u, "mid" + u), tags(g.object()));
    }

    @Test
    void createAssignsIncreasingIntegerIds() {
        String u = unique();
        Map<String, Object> a = create("https://example.com/a/" + u, "First " + u);
        Map<String, Object> b = create("https://example.com/b/" + u, "Second " + u);
        assertTrue(id(a) >= 1, "ids start at 1");
        assertEquals(id(a) + 1, id(b), "ids are assigned in creation order");
    }

    @Test
    void createAcceptsTitleLengthBoundariesOf1And200() {
        String u = unique();
        Map<String, Object> one = create("https://example.com/one/" + u, "x");
        assertEquals("x", one.get("title"));

        String title200 = ("T" + u + "-").repeat(20).substring(0, 200);
        assertEquals(200, title200.length());
        Map<String, Object> big = create("http://example.com/big/" + u, title200);
        assertEquals(title200, big.get("title"));
    }

    @Test
    void createRejectsMissingUrl() {
        Api.Resp r = post("/bookmarks", "{\"title\":\"Missing url " + unique() + "\",\"tags\":[\"a\"]}");
        assertError(r, 400);
    }

    @Test
    void createRejectsMissingTitle() {
        Api.Resp r = post("/bookmarks", "{\"url\":\"https://example.com/" + unique() + "\",\"tags\":[\"a\"]}");
        assertError(r, 400);
    }

    @Test
    void createRejectsEmptyObject() {
        assertError(post("/bookmarks", "{}"), 400);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"url\":123,\"title\":\"Wrong type\"}",
        "{\"url\":\"https://example.com/x\",\"title\":42}",
        "{\"url\":\"https://example.com/x\",\"title\":true}",
        "{\"url\":[\"https://example.com/x\"],\"title\":\"Wrong type\"}",
        "{\"url\":\"https://example.com/x\",\"title\":\"Wrong type\",\"tags\":\"java\"}",
        "{\"url\":\"https://example.com/x\",\"title\":\"Wrong type\",\"tags\":{\"a\":1}}"
    })
    void createRejectsFieldsOfWrongType(String json) {
        assertError(post("/bookmarks", json), 400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://example.com/file", "example.com", "www.example.com/page", "", "mailto:a@b.c",
        "https//example.com", "http:/example.com"})
    void createRejectsUrlWithoutHttpScheme(String url) {
        assertError(post("/bookmarks", body(url, "Bad url " + unique())), 400);
    }

    @Test
    void createRejectsEmptyTitle() {
        assertError(post("/bookmarks", body("https://example.com/" + unique(), "")), 400);
    }

    @Test
    void createRejectsTitleLongerThan200() {
        String title201 = "y".repeat(201);
        assertError(post("/bookmarks", body("https://example.com/" + unique(), title201)), 400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{not json", "{\"url\":\"https://example.com\",\"title\":", "this is not json",
        "{\"url\" \"https://example.com\", \"title\" \"x\"}"})
    void createRejectsInvalidJson(String raw) {
        assertError(post("/bookmarks", raw), 400);
    }

    @Test
    void rejectedCreateStoresNothing() {
        String u = unique();
        String title = "Rejected " + u;
        assertError(post("/bookmarks", body("ftp://example.com/" + u, title, "rej" + u)), 400);
        for (Map<String, Object> bm : list(null)) {
            assertTrue(!title.equals(bm.get("title")), "rejected bookmark must not be stored: " + bm);
        }
        assertEquals(List.of(), list("rej" + u));
    }
}
