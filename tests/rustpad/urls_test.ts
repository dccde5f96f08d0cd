import assert from "node:assert/strict";
import {
  apiUrl,
  editorUrl,
  parseBaseUrl,
  socketUrl,
} from "../../src/rustpad/urls.ts";

Deno.test("`parseBaseUrl()` keeps a path prefix and ends it with a slash", () => {
  assert.equal(parseBaseUrl("https://rustpad.io").href, "https://rustpad.io/");
  assert.equal(
    parseBaseUrl("http://127.0.0.1:3030/pads/rustpad").href,
    "http://127.0.0.1:3030/pads/rustpad/",
  );
  assert.equal(
    parseBaseUrl(new URL("https://example.com/rustpad/")).href,
    "https://example.com/rustpad/",
  );
});

Deno.test("`parseBaseUrl()` refuses relative, non-http and decorated URLs", () => {
  for (
    const base of [
      "",
      "rustpad.io",
      "/api",
      "ftp://example.com",
      "ws://example.com",
      "file:///tmp",
      "http://example.com/?q=1",
      "http://example.com/#abc",
      "http://user:pass@example.com/",
    ]
  ) {
    assert.throws(() => parseBaseUrl(base), TypeError, base);
  }
  assert.throws(() => parseBaseUrl("rustpad.io"), {
    name: "TypeError",
    message:
      'Cannot use Rustpad URL as it is not an absolute URL: current value is "rustpad.io"',
  });
});

Deno.test("`apiUrl()` puts routes under the base URL's path prefix", () => {
  const base = parseBaseUrl("https://example.com/rustpad");
  assert.equal(
    apiUrl(base, "stats").href,
    "https://example.com/rustpad/api/stats",
  );
  assert.equal(
    apiUrl(base, "text/abc").href,
    "https://example.com/rustpad/api/text/abc",
  );
});

Deno.test("`socketUrl()` turns https into wss and http into ws, keeping the prefix", () => {
  assert.equal(
    socketUrl(parseBaseUrl("https://rustpad.io"), "abc").href,
    "wss://rustpad.io/api/socket/abc",
  );
  assert.equal(
    socketUrl(parseBaseUrl("http://127.0.0.1:3030/x"), "abc").href,
    "ws://127.0.0.1:3030/x/api/socket/abc",
  );
  assert.throws(
    () => socketUrl(parseBaseUrl("https://rustpad.io"), ".."),
    TypeError,
  );
});

Deno.test("`editorUrl()` puts the pad id after '#' under the prefix", () => {
  assert.equal(
    editorUrl(parseBaseUrl("https://rustpad.io"), "abc"),
    "https://rustpad.io/#abc",
  );
  assert.equal(
    editorUrl(parseBaseUrl("https://example.com/rustpad"), "a-b"),
    "https://example.com/rustpad/#a-b",
  );
  assert.throws(
    () => editorUrl(parseBaseUrl("https://rustpad.io"), "a b"),
    TypeError,
  );
});

// Keep the alphabet honest: it must exercise every kind of character.
