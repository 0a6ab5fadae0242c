/**
 * An address the server answered, made absolute against the host that serves it. The server answers
 * the addresses of what it serves itself (an avatar, a file link, a product image it stores) relative
 * to itself (`/api/files/...`), so that they work from whichever host a browser opened the app at; an
 * app whose pages come from its own origin (the phone apps' `https://localhost` or
 * `capacitor://localhost`) must put the API host in front, or an `<img>` would ask the app's own
 * origin. An absolute address (`https://...`, a protocol-relative `//...`, `data:`) is answered as it
 * is, and so is everything when the host is the app's own origin (no host).
 *
 * @example
 * resolveServerUrl('/api/files/avatar/abc', 'https://api.example.com') // 'https://api.example.com/api/files/avatar/abc'
 * resolveServerUrl('https://cdn.example.com/tea.png', 'https://api.example.com') // unchanged
 */
export function resolveServerUrl(url: string, host?: string): string;
export function resolveServerUrl(url: string | null | undefined, host?: string): string | undefined;
export function resolveServerUrl(url: string | null | undefined, host?: string): string | undefined {
  if (!url) return undefined;
  if (!url.startsWith('/') || url.startsWith('//') || !host) return url;
  return `${host.replace(/\/+$/, '')}${url}`;
}
