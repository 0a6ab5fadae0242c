/**
 * Path segments that carry a secret: link tokens in the web app's pages and in the API's link calls.
 * The segment after one of these is a bearer secret, whoever logs it.
 */
const SECRET_SEGMENTS = new Set(['reset', 'confirm', 'resetPassword', 'confirmUser']);

/**
 * Query parameters that carry a secret or a signature: signed file and payment-page links (`sig`),
 * provider signatures, tokens. A signature is as good as the link it signs while it lasts.
 */
const SECRET_PARAMS = new Set(['sig', 'signature', 'sign', 'token', 'key', 'secret', 'code', 'password']);

/**
 * The URL as it may be logged: every secret-carrying path segment and query value replaced by
 * `[redacted]`, by rule rather than route by route, so a new route that puts a token in its path
 * under one of these names or in one of these parameters is covered without a change here.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    if (SECRET_SEGMENTS.has(segments[i - 1] ?? '') && segments[i]) segments[i] = '[redacted]';
  }
  let out = segments.join('/');
  if (q !== -1) {
    const params = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq === -1 ? pair : pair.slice(0, eq);
        let decoded = name;
        try {
          decoded = decodeURIComponent(name);
        } catch {
          // A malformed name is logged as it came; it is not one of ours.
        }
        return eq !== -1 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
      });
    out += `?${params.join('&')}`;
  }
  return out;
}
