/**
 * An address the server answered (an avatar, a file link) made absolute. The server answers them
 * relative to itself (`/api/files/...`), so that they work from whichever host the app was opened
 * at; the phone apps, whose pages come from their own origin, resolve them against the API host.
 *
 * @example
 * serverUrl('/api/files/avatar/abc') // '/api/files/avatar/abc' in a browser build
 */
export function serverUrl(url: string, apiHost?: string): string;
export function serverUrl(url: string | null | undefined, apiHost?: string): string | undefined;
export function serverUrl(url: string | null | undefined, apiHost: string = import.meta.env.VITE_API_HOST ?? '') {
  if (!url) return undefined;
  if (!url.startsWith('/') || url.startsWith('//') || !apiHost) return url;
  return `${apiHost.replace(/\/+$/, '')}${url}`;
}
