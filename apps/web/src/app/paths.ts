/**
 * Every page of the app, in one place: `path` is the router pattern, `href` builds a link.
 * Kept free of imports so that the build config can read it (the worker's navigation allowlist).
 */
export const paths = {
  home: { path: '/', href: () => '/' },
  product: { path: '/products/:id', href: (id: string) => `/products/${encodeURIComponent(id)}` },
  cart: { path: '/cart', href: () => '/cart' },
  checkout: {
    path: '/checkout',
    href: (coupon?: string) => (coupon ? `/checkout?coupon=${encodeURIComponent(coupon)}` : '/checkout'),
  },
  order: { path: '/orders/:iden', href: (iden: string) => `/orders/${encodeURIComponent(iden)}` },
  orders: { path: '/orders', href: () => '/orders' },
  credits: {
    path: '/credits',
    href: (code?: string) => (code ? `/credits?code=${encodeURIComponent(code)}` : '/credits'),
  },
  login: {
    path: '/login',
    href: (from?: string, reason?: 'expired' | 'required') => {
      const q = new URLSearchParams();
      if (from && from !== '/login') q.set('from', from);
      if (reason) q.set('reason', reason);
      const s = q.toString();
      return s ? `/login?${s}` : '/login';
    },
  },
  register: { path: '/register', href: () => '/register' },
  forgot: { path: '/forgot', href: () => '/forgot' },
  reset: { path: '/reset/:token', href: (token: string) => `/reset/${token}` },
  confirm: { path: '/confirm/:token', href: (token: string) => `/confirm/${token}` },
  profile: { path: '/profile', href: () => '/profile' },
  goodbye: { path: '/goodbye', href: () => '/goodbye' },
  socialFinish: { path: '/social/finish', href: () => '/social/finish' },
  socialLink: { path: '/social/link/:token', href: (token: string) => `/social/link/${token}` },
  files: { path: '/files', href: () => '/files' },
  admin: { path: '/admin', href: (tab?: string) => (tab ? `/admin?tab=${tab}` : '/admin') },
} as const;

/** Pages the app itself renders; the service worker serves the shell only for these. */
export const appRoutePattern =
  /^\/($|products\/|cart$|checkout$|orders(\/|$)|credits$|login$|register$|forgot$|reset\/|confirm\/|profile$|goodbye$|social\/|files$|admin$)/;

/** Only same-app relative paths are accepted as a place to return to (no open redirects). */
export function safeReturnPath(from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//')) return '/';
  return from;
}
