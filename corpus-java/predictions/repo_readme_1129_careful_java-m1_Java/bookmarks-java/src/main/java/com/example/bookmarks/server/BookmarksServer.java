package com.example.bookmarks.server;

import com.example.bookmarks.http.ApiServlet;
import com.example.bookmarks.json.JsonCodec;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** Owns the Jetty lifecycle: one connector, one context, one front-controller servlet. */
public final class BookmarksServer {

    private final Server server;
    private final ServerConnector connector;

    public BookmarksServer(String host, int port, ApiServlet servlet, JsonCodec json) {
        QueuedThreadPool threads = new QueuedThreadPool(64, 4);
        threads.setName("bookmarks-http");
        this.server = new Server(threads);

        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        this.connector = new ServerConnector(server, new HttpConnectionFactory(config));
        connector.setHost(host);
        connector.setPort(port);
        connector.setReuseAddress(true);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        context.addServlet(new ServletHolder("api", servlet), "/*");
        context.setErrorHandler(new JsonErrorHandler(json));
        server.setHandler(context);
        server.setErrorHandler(new JsonErrorHandler(json));
        server.setStopAtShutdown(true);
        server.setStopTimeout(2_000);
    }

    public void start() throws Exception {
        server.start();
    }

    /** Actual bound port (useful when started on port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    public void join() throws InterruptedException {
        server.join();
    }

    public void stop() throws Exception {
        server.stop();
    }
}
