package com.example.bookmarks;

import java.util.ArrayList;
import java.util.List;

public class Bookmark {
    public int id;
    public String url;
    public String title;
    public List<String> tags = new ArrayList<>();
    public String createdAt;

    public Bookmark(int id, String url, String title, List<String> tags, String createdAt) {
        this.id = id;
        this.url = url;
        this.title = title;
        this.tags = tags;
        this.createdAt = createdAt;
    }

    public String toJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{");
        sb.append("\"id\": ").append(id).append(", ");
        sb.append("\"url\": \"").append(escape(url)).append("\", ");
        sb.append("\"title\": \"").append(escape(title)).append("\", ");
        sb.append("\"tags\": [");
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append("\"").append(escape(tags.get(i))).append("\"");
        }
        sb.append("], ");
        sb.append("\"createdAt\": \"").append(createdAt).append("\"");
        sb.append("}");
        return sb.toString();
    }

    public static String escape(String s) {
        if (s == null) return "";
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
