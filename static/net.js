/* The one way the page scripts talk to the server (sk.net): every request
   asks for answers in the page's own language (Accept-Language: <html lang>;
   the API writes its sentences in it) and carries the page's CSRF token.

   sk.net.fetch(url, o)         the browser's fetch with those headers; o: method,
                                body (an object is sent as JSON; FormData as is),
                                headers (added), accept ("application/json"), cache
   sk.net.send(method, url, body, headers)   the same, resolving {status, data,
                                etag}; data is {} when the answer is not JSON */
/** What net.js gives every script (sk.net):
 * @typedef {{net: {
 *   fetch: (url: string, o?: {method?: string, body?: *, headers?: Object<string, string>,
 *                              accept?: string, cache?: RequestCache}) => Promise<Response>,
 *   send: (method: string, url: string, body?: *, headers?: Object<string, string>)
 *     => Promise<{status: number, data: any, etag: string | null}>,
 *   language: () => string
 * }}} SkNet */
(function () {
  "use strict";
  var sk = /** @type {SkNet} */ (window.scorekeeper = window.scorekeeper || {});

  function language() { return document.documentElement.lang || "en"; }
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function request(url, o) {
    o = o || {};
    var headers = {"Accept": o.accept || "application/json", "Accept-Language": language(),
                   "X-CSRFToken": csrf()};
    var body = o.body;
    if (body !== undefined && !(body instanceof FormData)) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(body);
    }
    Object.keys(o.headers || {}).forEach(function (k) { headers[k] = o.headers[k]; });
    var opts = /** @type {RequestInit} */ ({method: o.method || "GET", credentials: "same-origin", headers: headers});
    if (body !== undefined) { opts.body = body; }
    if (o.cache) { opts.cache = o.cache; }
    return fetch(url, opts);
  }
  function send(method, url, body, headers) {
    return request(url, {method: method, body: body, headers: headers}).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (data) {
        return {status: resp.status, data: data, etag: resp.headers.get("ETag")};
      });
    });
  }
  sk.net = {fetch: request, send: send, language: language};
})();
