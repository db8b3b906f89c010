package com.example.bookmarks.http;

import com.example.bookmarks.error.ApiException;
import com.example.bookmarks.error.MethodNotAllowedException;
import com.example.bookmarks.json.JsonCodec;
import com.example.bookmarks.model.ErrorBody;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Front controller: adapts servlet requests to {@link ApiRequest}, dispatches through the
 * {@link Router}, and renders {@link ApiResponse}s and {@link ApiException}s as JSON.
 */
public final class ApiServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ApiServlet.class.getName());
    private static final String JSON = "application/json";

    private final transient Router router;
    private final transient JsonCodec json;

    public ApiServlet(Router router, JsonCodec json) {
        this.router = router;
        this.json = json;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        ApiResponse response;
        try {
            response = dispatch(req);
        } catch (MethodNotAllowedException e) {
            response = ApiResponse.of(e.status(), new ErrorBody(e.getMessage()))
                    .header("Allow", String.join(", ", e.allowed()));
        } catch (ApiException e) {
            response = ApiResponse.of(e.status(), new ErrorBody(e.getMessage()));
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Unhandled error for " + req.getMethod() + " " + req.getRequestURI(), e);
            response = ApiResponse.of(500, new ErrorBody("internal server error"));
        }
        render(response, resp);
    }

    private ApiResponse dispatch(HttpServletRequest req) throws IOException {
        String path = req.getPathInfo();
        if (path == null) {
            path = "/";
        }
        Router.Match match = router.resolve(req.getMethod(), path);
        byte[] body = req.getInputStream().readAllBytes();
        Map<String, List<String>> query = QueryString.parse(req.getQueryString());
        ApiRequest apiRequest = new ApiRequest(req.getMethod(), path, match.pathParams(), query, body);
        return match.handler().handle(apiRequest);
    }

    private void render(ApiResponse response, HttpServletResponse resp) throws IOException {
        if (resp.isCommitted()) {
            return;
        }
        resp.setStatus(response.status());
        response.headers().forEach(resp::setHeader);
        if (response.status() == 204) {
            return;
        }
        if (response.body() == null) {
            resp.setContentLength(0);
            return;
        }
        byte[] bytes = json.write(response.body());
        resp.setContentType(JSON);
        resp.setContentLength(bytes.length);
        try (OutputStream out = resp.getOutputStream()) {
            out.write(bytes);
        }
    }
}
