import type { FastifyInstance } from 'fastify';
import type { AppLinksConfig } from '../config.js';

export const ASSET_LINKS_PATH = '/.well-known/assetlinks.json';
export const APPLE_APP_SITE_ASSOCIATION_PATH = '/.well-known/apple-app-site-association';

/**
 * The web addresses the apps open instead of the browser: the mailed confirmation and reset links
 * and an order's page, where a payment page sends the buyer back.
 */
export const APP_LINK_PATHS = ['/confirm/*', '/reset/*', '/orders/*'] as const;

/**
 * Serves the files by which Android (App Links) and iOS (Universal Links) check that this host lets
 * the apps open its links: JSON, 200, never a redirect (both systems refuse one), and 404 for a
 * platform whose app is not configured, rather than the web app's page that would answer otherwise.
 */
export function registerAppLinks(app: FastifyInstance, config: AppLinksConfig): void {
  const android = config.android && [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: {
        namespace: 'android_app',
        package_name: config.android.packageName,
        sha256_cert_fingerprints: config.android.fingerprints,
      },
    },
  ];
  const ios = config.ios && {
    applinks: {
      details: [{ appIDs: [config.ios.appId], components: APP_LINK_PATHS.map((path) => ({ '/': path })) }],
    },
  };
  for (const [url, body] of [
    [ASSET_LINKS_PATH, android],
    [APPLE_APP_SITE_ASSOCIATION_PATH, ios],
  ] as const) {
    const text = body && JSON.stringify(body);
    app.get(url, (request, reply) => {
      if (!text) return reply.status(404).send({ code: 404, error: 'not_found', requestId: request.id });
      return reply.type('application/json').header('cache-control', 'public, max-age=3600').send(text);
    });
  }
}
