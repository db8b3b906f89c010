package com.example.bookmarks;

import java.util.ArrayList;
import java.util.List;

public class Bookmark {
    private int id;
    private String url;
    private String title;
    private List<String> tags = new ArrayList<>();
    private String createdAt;

    public Bookmark() {
    }

    public Bookmark(int id, String url, String title, List<String> tags, String createdAt) {
        this.id = id;
        this.url = url;
        this.title = title;
        this.tags = tags;
        this.createdAt = createdAt;
    }

    public int getId() {
        return id;
    }

    public void setId(int id) {
        this.id = id;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getTitle() {
        return title;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public List<String> getTags() {
        return tags;
    }

    public void setTags(List<String> tags) {
        this.tags = tags;
    }

    public String getCreatedAt() {
        return createdAt;
    }

    public void setCreatedAt(String createdAt) {
        this.createdAt = createdAt;
    }
}
