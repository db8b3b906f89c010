package com.example.bookmarks.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.ArrayList;
import java.util.List;

@JsonPropertyOrder({"id", "url", "title", "tags", "createdAt"})
public class Bookmark {

    private long id;
    private String url;
    private String title;
    private List<String> tags = new ArrayList<>();
    private String createdAt;

    public Bookmark() {
    }

    public Bookmark(long id, String url, String title, List<String> tags, String createdAt) {
        this.id = id;
        this.url = url;
        this.title = title;
        this.tags = new ArrayList<>(tags);
        this.createdAt = createdAt;
    }

    public long getId() {
        return id;
    }

    public void setId(long id) {
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
        this.tags = new ArrayList<>(tags);
    }

    public String getCreatedAt() {
        return createdAt;
    }

    public void setCreatedAt(String createdAt) {
        this.createdAt = createdAt;
    }

    public Bookmark copy() {
        return new Bookmark(id, url, title, tags, createdAt);
    }
}
