package bookmarks.tests;

import static bookmarks.tests.Api.body;
import static bookmarks.tests.Api.countOf;
import static bookmarks.tests.Api.create;
import static bookmarks.tests.Api.id;
import static bookmarks.tests.Api.put;
import static bookmarks.tests.Api.tagCounts;
import static bookmarks.tests.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** GET /tags: one entry per tag in use with its count, sorted by tag name, kept in sync with changes. */
class TagCountsTest {

    @Test
    void tagsReturnsCountPerTag() {
        String u = unique();
        create("https://example.com/c1/" + u, "Count one " + u, "ca" + u, "cb" + u);
        create("https://example.com/c2/" + u, "Count two " + u, "ca" + u);
        create("https://example.com/c3/" + u, "Count three " + u, "ca" + u, "cc" + u);

        List<Map<String, Object>> counts = tagCounts();
        assertEquals(Long.valueOf(3), countOf(counts, "ca" + u));
        assertEquals(Long.valueOf(1), countOf(counts, "cb" + u));
        assertEquals(Long.valueOf(1), countOf(counts, "cc" + u));
    }

    @Test
    void tagsAreSortedByNameAscendingAndUnique() {
        String u = unique();
        create("https://example.com/s/" + u, "Sort " + u, "s3" + u, "s1" + u, "s2" + u);
        create("https://example.com/s2/" + u, "Sort again " + u, "s2" + u);

        List<Map<String, Object>> counts = tagCounts();
        Set<String> seen = new HashSet<>();
        String prev = null;
        for (Map<String, Object> e : counts) {
            String tag = (String) e.get("tag");
            assertTrue(seen.add(tag), "tag listed twice: " + tag);
            assertTrue((Long) e.get("count") >= 1, "only tags in use are listed: " + e);
            if (prev != null) {
                assertTrue(prev.compareTo(tag) < 0, "tags must be sorted ascending: '" + prev + "' before '" + tag + "'");
            }
            prev = tag;
        }
        int i1 = -1;
        int i2 = -1;
        int i3 = -1;
        for (int k = 0; k < counts.size(); k++) {
            Object t = counts.get(k).get("tag");
            if (("s1" + u).equals(t)) {
                i1 = k;
            } else if (("s2" + u).equals(t)) {
                i2 = k;
            } else if (("s3" + u).equals(t)) {
                i3 = k;
            }
        }
        assertTrue(i1 >= 0 && i2 > i1 && i3 > i2, "expected s1 < s2 < s3 in " + counts);
        assertEquals(Long.valueOf(2), countOf(counts, "s2" + u));
    }

    @Test
    void tagsAreCountedCaseInsensitively() {
        String u = unique();
        create("https://example.com/m1/" + u, "Mixed one " + u, "Case" + u);
        create("https://example.com/m2/" + u, "Mixed two " + u, "CASE" + u);
        create("https://example.com/m3/" + u, "Mixed three " + u, "case" + u);

        List<Map<String, Object>> counts = tagCounts();
        assertEquals(Long.valueOf(3), countOf(counts, "case" + u));
        assertNull(countOf(counts, "Case" + u));
        assertNull(countOf(counts, "CASE" + u));
    }

    @Test
    void tagsReflectDeletes() {
        String u = unique();
        Map<String, Object> a = create("https://example.com/x1/" + u, "Del one " + u, "shared" + u, "solo" + u);
        create("https://example.com/x2/" + u, "Del two " + u, "shared" + u);
        assertEquals(Long.valueOf(2), countOf(tagCounts(), "shared" + u));
        assertEquals(Long.valueOf(1), countOf(tagCounts(), "solo" + u));

        assertEquals(204, Api.delete("/bookmarks/" + id(a)).status);

        List<Map<String, Object>> counts = tagCounts();
        assertEquals(Long.valueOf(1), countOf(counts, "shared" + u));
        assertNull(countOf(counts, "solo" + u), "a tag no longer in use must not be listed");
    }

    @Test
    void tagsReflectUpdates() {
        String u = unique();
        Map<String, Object> a = create("https://example.com/u1/" + u, "Upd " + u, "before" + u);
        assertEquals(Long.valueOf(1), countOf(tagCounts(), "before" + u));

        Api.Resp r = put("/bookmarks/" + id(a), body("https://example.com/u1/" + u, "Upd " + u, "after" + u));
        assertEquals(200, r.status, r.toString());

        List<Map<String, Object>> counts = tagCounts();
        assertNull(countOf(counts, "before" + u), "replaced tag must no longer be listed");
        assertEquals(Long.valueOf(1), countOf(counts, "after" + u));
    }
}
