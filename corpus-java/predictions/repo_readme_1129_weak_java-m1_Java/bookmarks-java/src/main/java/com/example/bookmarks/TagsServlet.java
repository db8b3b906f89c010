package com.example.bookmarks;

import com.fasterxml.jackson.databind.ObjectMapper;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class TagsServlet extends HttpServlet {

    private final BookmarkStore store;
    private final ObjectMapper mapper = new ObjectMapper();

    public TagsServlet(BookmarkStore store) {
        this.store = store;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        List<Map<String, Object>> result = new ArrayList<>();
        for (Map.Entry<String, Integer> e : store.tagCounts().entrySet()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("tag", e.getKey());
            item.put("count", e.getValue());
            result.add(item);
        }
        resp.setStatus(200);
        resp.setContentType("application/json");
        mapper.writeValue(resp.getWriter(), result);
    }
}
