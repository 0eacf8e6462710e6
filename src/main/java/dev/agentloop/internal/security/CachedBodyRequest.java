package dev.agentloop.internal.security;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** A request whose body was read to check it, handed on so that the engine reads the same bytes. */
final class CachedBodyRequest extends HttpServletRequestWrapper {

  private final byte[] body;

  private CachedBodyRequest(HttpServletRequest request, byte[] body) {
    super(request);
    this.body = body;
  }

  /** The request with its body read, or empty when the body has more than {@code maxBytes}: nothing more is read then. */
  static Optional<CachedBodyRequest> of(HttpServletRequest request, int maxBytes) throws IOException {
    byte[] body = request.getInputStream().readNBytes(maxBytes + 1);
    return body.length > maxBytes ? Optional.empty() : Optional.of(new CachedBodyRequest(request, body));
  }

  byte[] body() {
    return body;
  }

  /** The same request with another body, e.g. with text made storable. */
  CachedBodyRequest withBody(byte[] replaced) {
    return new CachedBodyRequest((HttpServletRequest) getRequest(), replaced);
  }

  @Override
  public ServletInputStream getInputStream() {
    ByteArrayInputStream in = new ByteArrayInputStream(body);
    return new ServletInputStream() {
      @Override
      public int read() {
        return in.read();
      }

      @Override
      public int read(byte[] buffer, int offset, int length) {
        return in.read(buffer, offset, length);
      }

      @Override
      public boolean isFinished() {
        return in.available() == 0;
      }

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setReadListener(ReadListener listener) {
        throw new UnsupportedOperationException("the body is read already");
      }
    };
  }

  @Override
  public BufferedReader getReader() {
    Charset charset = getCharacterEncoding() == null ? StandardCharsets.UTF_8 : Charset.forName(getCharacterEncoding());
    return new BufferedReader(new InputStreamReader(getInputStream(), charset));
  }
}
