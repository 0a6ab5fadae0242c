import type { AuthenticationCredential, RegistrationCredential, WebauthnOptions } from '@till/protocol';

/**
 * The browser's WebAuthn API, through `@simplewebauthn/browser` (loaded only when a passkey is
 * used, so that the first screen does not carry it). One module, so that screens can be tested
 * without a real authenticator.
 */
export const webauthn = {
  /** Whether this browser can make and use passkeys (a secure context with WebAuthn). */
  supported(): boolean {
    return (
      typeof window !== 'undefined' &&
      window.isSecureContext &&
      typeof window.PublicKeyCredential === 'function' &&
      typeof navigator.credentials?.create === 'function'
    );
  },
  /** Asks the authenticator for a new passkey; rejects when the user cancels. */
  async create(options: WebauthnOptions): Promise<RegistrationCredential> {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const answer = await startRegistration({ optionsJSON: options as never });
    return answer as unknown as RegistrationCredential;
  },
  /** Asks the authenticator to sign the challenge with one of its passkeys; rejects when the user cancels. */
  async get(options: WebauthnOptions): Promise<AuthenticationCredential> {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const answer = await startAuthentication({ optionsJSON: options as never });
    return answer as unknown as AuthenticationCredential;
  },
};

/** Whether a WebAuthn failure is the user closing the browser's dialog (nothing to report). */
export function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}
