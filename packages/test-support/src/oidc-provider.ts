import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importSPKI, jwtVerify, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

/** A person at the test provider: the claims its ID tokens carry about them. */
export interface TestPerson {
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  is_private_email?: string;
}

/** A client registered at the test provider. */
export interface TestClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic' | 'none';
  application_type?: 'web' | 'native';
}

/** Where the provider left the browser: a redirect to `location`, or a form to post (`form_post`). */
export type BrowserStop = { location: string } | { form: { action: string; fields: Record<string, string> } };

/**
 * A real OpenID provider (`oidc-provider`) in the test process, over HTTP on 127.0.0.1. It signs
 * in whoever {@link TestOp.nextPerson} names, without a page, and grants the scopes asked for.
 * `appleSecret` makes its token endpoint take Apple's client secret: an ES256 JWT, checked against
 * Apple's documented shape and the test key before the static secret is handed on.
 */
export interface TestOp {
  issuer: string;
  nextPerson: TestPerson | undefined;
  /** The JWT client secrets the token endpoint took, decoded (Apple mode). */
  appleSecrets: { header: Record<string, unknown>; payload: JWTPayload }[];
  /** Registers the clients; call once, before the first request. */
  setClients(clients: TestClient[]): void;
  /** Follows a browser through the provider from `url` until it leaves for `leaveAt`. */
  browse(url: string, leaveAt: string): Promise<BrowserStop>;
  /** A native app's sign-in: the code flow with PKCE for a public client, answering its ID token. */
  nativeIdToken(clientId: string, redirectUri: string, nonce: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestOpOptions {
  /** Apple mode: the team, key id and public key (PEM) its client secrets must be signed with. */
  appleSecret?: { teamId: string; keyId: string; publicKey: string; clientId: string; staticSecret: string };
  /** Signing keys (JWK, private); a fresh RSA key when not given. */
  jwks?: { keys: Record<string, unknown>[] };
}

/** An RSA signing key as a private JWK, for providers that should share keys. */
export function testSigningKeys(): { keys: Record<string, unknown>[] } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-rsa', use: 'sig', alg: 'RS256' }] };
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the provider; its issuer is `http://127.0.0.1:PORT`. */
export async function startTestOp(options: TestOpOptions = {}): Promise<TestOp> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwks = options.jwks ?? testSigningKeys();
  const people = new Map<string, TestPerson>();
  const op: TestOp = {
    issuer,
    nextPerson: undefined,
    appleSecrets: [],
    setClients(clients) {
      const provider = new Provider(issuer, {
        clients: clients.map((c) => ({
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
          ...c,
        })),
        pkce: { required: () => true },
        // Claims go into the ID token itself, as Google's and Apple's do.
        conformIdTokenClaims: false,
        claims: { openid: ['sub'], email: ['email', 'email_verified', 'is_private_email'], profile: ['name'] },
        scopes: ['openid', 'email', 'profile', 'name'],
        findAccount: (_ctx, sub) => {
          const person = people.get(sub);
          return person ? { accountId: sub, claims: () => ({ ...person }) } : undefined;
        },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        features: { devInteractions: { enabled: false } },
        cookies: { keys: ['test cookie key, not a secret'] },
        jwks: jwks as never,
      });
      const callback = provider.callback();
      handler = (req, res) => {
        void (async () => {
          try {
            if (req.url?.startsWith('/interaction/')) {
              const details = await provider.interactionDetails(req, res);
              const person = op.nextPerson;
              if (!person) throw new Error('no person to sign in');
              people.set(person.sub, person);
              const grant = new provider.Grant({ accountId: person.sub, clientId: String(details.params.client_id) });
              grant.addOIDCScope(String(details.params.scope));
              const grantId = await grant.save();
              await provider.interactionFinished(
                req,
                res,
                { login: { accountId: person.sub }, consent: { grantId } },
                { mergeWithLastSubmission: false },
              );
              return;
            }
            if (options.appleSecret && req.method === 'POST' && req.url?.startsWith('/token')) {
              const form = new URLSearchParams(await readBody(req));
              const secret = form.get('client_secret') ?? '';
              const apple = options.appleSecret;
              // Apple's documented client secret: ES256, `kid` the key id; iss the team, sub the
              // client id, aud Apple's issuer, iat and exp at most six months apart.
              const header = decodeProtectedHeader(secret) as Record<string, unknown>;
              const { payload } = await jwtVerify(secret, await importSPKI(apple.publicKey, 'ES256'), {
                algorithms: ['ES256'],
                issuer: apple.teamId,
                subject: apple.clientId,
                audience: issuer,
                requiredClaims: ['iat', 'exp'],
              });
              if (header.kid !== apple.keyId) throw new Error('wrong kid');
              if ((payload.exp ?? 0) - (payload.iat ?? 0) > 15_777_000) throw new Error('lives too long');
              op.appleSecrets.push({ header, payload });
              form.set('client_secret', apple.staticSecret);
              (req as IncomingMessage & { body?: string }).body = form.toString();
            }
            await callback(req, res);
          } catch (error) {
            res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
          }
        })();
      };
    },
    async browse(url, leaveAt) {
      const jar = new Map<string, string>();
      let next = url;
      for (let hop = 0; hop < 20; hop++) {
        if (next.startsWith(leaveAt)) return { location: next };
        const res = await fetch(next, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const cookie of res.headers.getSetCookie()) {
          const [pair = ''] = cookie.split(';');
          const eq = pair.indexOf('=');
          jar.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        const location = res.headers.get('location');
        if (location) {
          next = new URL(location, next).href;
          continue;
        }
        const html = await res.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`the provider stopped at ${res.status}: ${html.slice(0, 300)}`);
        const fields: Record<string, string> = {};
        for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g))
          fields[m[1] ?? ''] = unescapeHtml(m[2] ?? '');
        return { form: { action: unescapeHtml(action), fields } };
      }
      throw new Error('too many redirects');
    },
    async nativeIdToken(clientId, redirectUri, nonce) {
      const verifier = 'native-verifier-'.padEnd(64, 'x');
      const { createHash } = await import('node:crypto');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const auth = new URL(`${issuer}/auth`);
      for (const [k, v] of Object.entries({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        nonce,
        state: 'native-state',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }))
        auth.searchParams.set(k, v);
      const stop = await op.browse(auth.href, redirectUri);
      if (!('location' in stop)) throw new Error('expected a redirect');
      const code = new URL(stop.location).searchParams.get('code') ?? '';
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
        }).toString(),
      });
      const body = (await res.json()) as { id_token?: string; error?: string };
      if (!body.id_token) throw new Error(`no ID token: ${body.error ?? res.status}`);
      return body.id_token;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return op;
}
