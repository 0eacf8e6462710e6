package com.example.secured;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Real HTTP to the host under test: as a user with HTTP Basic credentials, as nobody, or as a browser with cookies. */
final class Http {

  static final ObjectMapper JSON = new ObjectMapper();

  private final CookieManager cookies = new CookieManager();
  private final HttpClient client = HttpClient.newBuilder().cookieHandler(cookies).build();
  private final int port;
  private final String authorization;

  private Http(int port, String authorization) {
    this.port = port;
    this.authorization = authorization;
  }

  static Http as(int port, String user, String password) {
    return new Http(port, "Basic " + Base64.getEncoder()
        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  /** No credentials; keeps the cookies it is given, as a browser does. */
  static Http anonymous(int port) {
    return new Http(port, null);
  }

  /** Logs in to the Camunda webapps as Cockpit does, keeping the session cookie. */
  HttpResponse<String> loginToCockpit(String user, String password) {
    get("/camunda/app/cockpit/default/");
    HttpResponse<String> login = send(request("/camunda/api/admin/auth/user/default/login/cockpit")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("X-XSRF-TOKEN", csrfToken())
        .POST(HttpRequest.BodyPublishers.ofString("username=" + user + "&password=" + password)));
    // the login starts a new session; Cockpit's next request to the webapps gives it its CSRF token
    get("/camunda/api/admin/auth/user/default");
    return login;
  }

  /** The webapps' CSRF token, from its newest cookie. */
  String csrfToken() {
    return cookies.getCookieStore().getCookies().stream().filter(cookie -> cookie.getName().equals("XSRF-TOKEN"))
        .map(HttpCookie::getValue).reduce((first, last) -> last).orElse("");
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET());
  }

  HttpResponse<String> post(String path, String json) {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** A change with the webapps' CSRF token, as the Cockpit plugin sends it. */
  HttpResponse<String> postWithCsrfToken(String path, String json) {
    return send(request(path).header("Content-Type", "application/json").header("X-XSRF-TOKEN", csrfToken())
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + response.body(), e);
    }
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    return authorization == null ? builder : builder.header("Authorization", authorization);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
