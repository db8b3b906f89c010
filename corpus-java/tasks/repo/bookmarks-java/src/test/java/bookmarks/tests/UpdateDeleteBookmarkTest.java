package bookmarks.tests;

import static bookmarks.tests.Api.assertError;
import static bookmarks.tests.Api.assertJsonContentType;
import static bookmarks.tests.Api.body;
import static bookmarks.tests.Api.bodyNoTags;
import static bookmarks.tests.Api.create;
import static bookmarks.tests.Api.findById;
import static bookmarks.tests.Api.id;
import static bookmarks.tests.Api.list;
import static bookmarks.tests.Api.put;
import static bookmarks.tests.Api.tags;
import static bookmarks.tests.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** PUT /bookmarks/{id} (replace, keep id/createdAt, 400, 404) and DELETE /bookmarks/{id} (204, 404). */
class UpdateDeleteBookmarkTest {

    @Test
    void updateReplacesBookmarkKeepingIdAndCreatedAt() {
        String u = unique();
        Map<String, Object> created = create("https://example.com/old/" + u, "Old " + u, "old" + u);
        long id = id(created);

        Api.Resp r = put("/bookmarks/" + id, body("http://example.org/new/" + u, "New " + u, "New" + u, "fresh" + u));
        assertEquals(200, r.status, r.toString());
        assertJsonContentType(r);
        Map<String, Object> updated = r.object();
        Api.assertBookmarkShape(updated);
        assertEquals(id, id(updated), "id must be kept");
        assertEquals(created.get("createdAt"), updated.get("createdAt"), "createdAt must be kept");
        assertEquals("http://example.org/new/" + u, updated.get("url"));
        assertEquals("New " + u, updated.get("title"));
        assertEquals(List.of("new" + u, "fresh" + u), tags(updated));

        Api.Resp g = Api.get("/bookmarks/" + id);
        assertEquals(200, g.status, g.toString());
        assertEquals(updated, g.object(), "GET after PUT returns the updated bookmark");
        assertEquals(updated, findById(list(null), id));
    }

    @Test
    void updateWithoutTagsReplacesTagsWithEmptyList() {
        String u = unique();
        Map<String, Object> created = create("https://example.com/t/" + u, "Tagged " + u, "keep" + u);
        Api.Resp r = put("/bookmarks/" + id(created), bodyNoTags("https://example.com/t/" + u, "Untagged " + u));
        assertEquals(200, r.status, r.toString());
        Map<String, Object> updated = r.object();
        assertEquals(List.of(), tags(updated));
        assertEquals("Untagged " + u, updated.get("title"));
        assertEquals(List.of(), list("keep" + u), "old tag must no longer match");
    }

    @Test
    void updateNormalisesTagsLikeCreate() {
        String u = unique();
        Map<String, Object> created = create("https://example.com/n/" + u, "Norm " + u);
        Api.Resp r = put("/bookmarks/" + id(created),
                body("https://example.com/n/" + u, "Norm " + u, "B" + u, "a" + u, "b" + u, "A" + u));
        assertEquals(200, r.status, r.toString());
        assertEquals(List.of("b" + u, "a" + u), tags(r.object()));
    }

    @Test
    void updateWithInvalidBodyReturns400AndLeavesBookmarkUnchanged() {
        String u = unique();
        Map<String, Object> created = create("https://example.com/v/" + u, "Valid " + u, "v" + u);
        String path = "/bookmarks/" + id(created);

        assertError(put(path, body("ftp://example.com/v/" + u, "Bad url " + u)), 400);
        assertError(put(path, body("https://example.com/v/" + u, "")), 400);
        assertError(put(path, body("https://example.com/v/" + u, "z".repeat(201))), 400);
        assertError(put(path, "{\"url\":\"https://example.com/v/" + u + "\"}"), 400);
        assertError(put(path, "{\"title\":\"No url " + u + "\"}"), 400);
        assertError(put(path, "{\"url\":\"https://example.com/v/" + u + "\",\"title\":5}"), 400);
        assertError(put(path, "{\"url\":\"https://example.com/v/" + u + "\",\"title\":\"T\",\"tags\":\"x\"}"), 400);
        assertError(put(path, "{broken json"), 400);

        Api.Resp g = Api.get(path);
        assertEquals(200, g.status, g.toString());
        assertEquals(created, g.object(), "failed updates must not modify the bookmark");
    }

    @Test
    void updateUnknownIdReturns404() {
        String u = unique();
        assertError(put("/bookmarks/987654321", body("https://example.com/" + u, "Nobody " + u)), 404);
    }

    @Test
    void deleteReturns204ThenGetReturns404() {
        String u = unique();
        Map<String, Object> created = create("https://example.com/d/" + u, "Delete " + u, "d" + u);
        long id = id(created);

        Api.Resp d = Api.delete("/bookmarks/" + id);
        assertEquals(204, d.status, d.toString());
        assertTrue(d.body == null || d.body.isEmpty(), "204 must have no body: '" + d.body + "'");

        assertError(Api.get("/bookmarks/" + id), 404);
    }

    @Test
    void deletedBookmarkDisappearsFromListAndTagFilter() {
        String u = unique();
        Map<String, Object> keep = create("https://example.com/k/" + u, "Keep " + u, "dl" + u);
        Map<String, Object> gone = create("https://example.com/g/" + u, "Gone " + u, "dl" + u);

        assertEquals(204, Api.delete("/bookmarks/" + id(gone)).status);

        List<Map<String, Object>> all = list(null);
        assertNull(findById(all, id(gone)), "deleted bookmark must not be listed");
        assertEquals(keep, findById(all, id(keep)));
        List<Map<String, Object>> filtered = list("dl" + u);
        assertEquals(1, filtered.size(), filtered.toString());
        assertEquals(id(keep), id(filtered.get(0)));
    }

    @Test
    void deleteTwiceReturns404AndUpdateAfterDeleteReturns404() {
        String u = unique();
        Map<String, Object> created = create("https://example.com/t2/" + u, "Twice " + u);
        String path = "/bookmarks/" + id(created);
        assertEquals(204, Api.delete(path).status);
        assertError(Api.delete(path), 404);
        assertError(put(path, body("https://example.com/t2/" + u, "Again " + u)), 404);
    }

    @Test
    void deleteUnknownIdReturns404() {
        assertError(Api.delete("/bookmarks/987654321"), 404);
    }
}
