package bookmarks.tests;

import static bookmarks.tests.Api.assertError;
import static bookmarks.tests.Api.assertJsonContentType;
import static bookmarks.tests.Api.create;
import static bookmarks.tests.Api.findById;
import static bookmarks.tests.Api.id;
import static bookmarks.tests.Api.list;
import static bookmarks.tests.Api.tags;
import static bookmarks.tests.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** GET /bookmarks (ordering, tag filter) and GET /bookmarks/{id} (200 and 404). */
class ListAndGetBookmarksTest {

    private static List<Long> ids(List<Map<String, Object>> items) {
        List<Long> out = new ArrayList<>();
        for (Map<String, Object> bm : items) {
            out.add(id(bm));
        }
        return out;
    }

    @Test
    void listContainsCreatedBookmarksOrderedByIdAscending() {
        String u = unique();
        Map<String, Object> a = create("https://example.com/l1/" + u, "List one " + u, "l" + u);
        Map<String, Object> b = create("https://example.com/l2/" + u, "List two " + u);
        Map<String, Object> c = create("https://example.com/l3/" + u, "List three " + u, "x" + u, "y" + u);

        List<Map<String, Object>> all = list(null);
        List<Long> ids = ids(all);
        for (int k = 1; k < ids.size(); k++) {
            assertTrue(ids.get(k - 1) < ids.get(k), "list must be ordered by id ascending: " + ids);
        }
        for (Map<String, Object> created : List.of(a, b, c)) {
            Map<String, Object> listed = findById(all, id(created));
            assertNotNull(listed, "created bookmark missing from list: " + created);
            assertEquals(created, listed, "listed bookmark should equal the created one");
        }
        assertTrue(ids.indexOf(id(a)) < ids.indexOf(id(b)) && ids.indexOf(id(b)) < ids.indexOf(id(c)));
    }

    @Test
    void listFilteredByTagReturnsOnlyBookmarksWithThatTagInIdOrder() {
        String u = unique();
        String tag = "f" + u;
        Map<String, Object> a = create("https://example.com/f1/" + u, "Filter one " + u, tag, "other" + u);
        create("https://example.com/f2/" + u, "Filter two " + u, "other" + u);
        Map<String, Object> c = create("https://example.com/f3/" + u, "Filter three " + u, "zz" + u, tag);
        create("https://example.com/f4/" + u, "Filter four " + u);

        List<Map<String, Object>> filtered = list(tag);
        assertEquals(List.of(id(a), id(c)), ids(filtered), "filter by tag: " + filtered);
        for (Map<String, Object> bm : filtered) {
            assertTrue(tags(bm).contains(tag));
        }
        assertEquals(a, filtered.get(0));
        assertEquals(c, filtered.get(1));
    }

    @Test
    void listTagFilterIsCaseInsensitive() {
        String u = unique();
        Map<String, Object> a = create("https://example.com/ci/" + u, "Case " + u, "MiXeD" + u);
        assertEquals(List.of("mixed" + u), tags(a));

        assertEquals(List.of(id(a)), ids(list("mixed" + u)));
        assertEquals(List.of(id(a)), ids(list("MIXED" + u.toUpperCase())));
        assertEquals(List.of(id(a)), ids(list("MiXeD" + u)));
    }

    @Test
    void listWithUnknownTagReturnsEmptyArray() {
        assertEquals(List.of(), list("nosuchtag" + unique()));
    }

    @Test
    void getReturnsTheBookmark() {
        String u = unique();
        Map<String, Object> created = create("http://example.net/get/" + u, "Get " + u, "G" + u);
        Api.Resp r = Api.get("/bookmarks/" + id(created));
        assertEquals(200, r.status, r.toString());
        assertJsonContentType(r);
        Map<String, Object> got = r.object();
        Api.assertBookmarkShape(got);
        assertEquals(created, got);
        assertEquals("http://example.net/get/" + u, got.get("url"));
        assertEquals("Get " + u, got.get("title"));
        assertEquals(List.of("g" + u), tags(got));
    }

    @Test
    void getUnknownIdReturns404() {
        assertError(Api.get("/bookmarks/987654321"), 404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1x", "one"})
    void getNonNumericIdReturns404(String badId) {
        assertError(Api.get("/bookmarks/" + badId), 404);
    }
}
