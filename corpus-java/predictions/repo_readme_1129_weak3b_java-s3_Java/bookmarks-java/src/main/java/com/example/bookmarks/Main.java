package com.example.bookmarks;

import com.sun.net.httpserver.HttpServer;

import java.net.InetSocketAddress;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", 8080), 0);
        BookmarkStore store = new BookmarkStore();
        BookmarkHandler handler = new BookmarkHandler(store);
        server.createContext("/health", handler);
        server.createContext("/bookmarks", handler);
        server.createContext("/tags", handler);
        server.setExecutor(null);
        server.start();
        System.out.println("Server started on port 8080");
    }
}
