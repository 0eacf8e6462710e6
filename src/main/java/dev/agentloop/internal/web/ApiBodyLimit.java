package dev.agentloop.internal.web;

import dev.agentloop.internal.security.ApiSettings;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the body of a request to AgentLoop's API at {@link #MAX_BYTES}: a declared length over it is
 * answered 413 at once, without reading; a body sent in chunks is cut off where it passes the bound, and
 * the request is answered 413 the same way ({@link ApiProblems}). The largest body a person sends is an
 * edit of a step, which a step's own limit ({@code max-step-chars}) keeps far below it. Thread-safe.
 */
class ApiBodyLimit extends OncePerRequestFilter {

  /** The most bytes a request body to the API may have: 4 MiB. */
  static final int MAX_BYTES = 4 * 1024 * 1024;

  private final ApiSettings api;

  ApiBodyLimit(ApiSettings api) {
    this.api = api;
  }

  static String tooLarge() {
    return "the request body may have at most " + MAX_BYTES + " bytes (4 MiB)";
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !ApiErrors.isApi(api, request.getContextPath(), request.getRequestURI());
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (request.getContentLengthLong() > MAX_BYTES) {
      response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE.value());
      response.setContentType(ApiErrors.CONTENT_TYPE);
      response.setCharacterEncoding("UTF-8");
      // the rest of the body is not read: the connection closes after this answer
      response.setHeader("Connection", "close");
      response.getWriter().write(ApiErrors.problem(HttpStatus.PAYLOAD_TOO_LARGE, tooLarge()));
      return;
    }
    chain.doFilter(new Bounded(request), response);
  }

  /** Thrown by the bounded body where it passes the limit; the API answers 413. */
  static final class BodyTooLargeException extends IOException {

    BodyTooLargeException() {
      super(tooLarge());
    }
  }

  /** The request with a body that fails once more than {@link #MAX_BYTES} were read. */
  private static final class Bounded extends HttpServletRequestWrapper {

    private ServletInputStream bounded;

    Bounded(HttpServletRequest request) {
      super(request);
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (bounded == null) {
        bounded = new Counting(super.getInputStream());
      }
      return bounded;
    }

    @Override
    public BufferedReader getReader() throws IOException {
      Charset charset = getCharacterEncoding() == null ? StandardCharsets.UTF_8 : Charset.forName(getCharacterEncoding());
      return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }
  }

  private static final class Counting extends ServletInputStream {

    private final ServletInputStream in;
    private long read;

    Counting(ServletInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      count(Math.max(n, 0));
      return n;
    }

    private void count(int n) throws BodyTooLargeException {
      read += n;
      if (read > MAX_BYTES) {
        throw new BodyTooLargeException();
      }
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
