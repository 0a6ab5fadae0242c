import type * as AppStoreLibrary from '@apple/app-store-server-library';
import type {
  AppStoreServerAPIClient,
  JWSTransactionDecodedPayload,
  ResponseBodyV2DecodedPayload,
  SignedDataVerifier,
} from '@apple/app-store-server-library';
import type { AppStoreConfig } from './config.js';

/** Why Apple's signed data was not accepted, as validatePurchase's `reason`. */
export type Unverified = 'signature' | 'bundle_id' | 'environment' | 'unverifiable';

/** Signed data that did not verify. */
export class NotVerified extends Error {
  constructor(readonly reason: Unverified) {
    super(`App Store data not verified: ${reason}`);
    this.name = 'NotVerified';
  }
}

/** Apple's API could not answer for the transaction: unknown to Apple, or Apple out of reach. */
export class NotFetched extends Error {
  constructor(
    readonly reason: 'unknown_transaction' | 'store_unavailable',
    readonly status?: number,
    readonly apiError?: number | null,
  ) {
    super(`App Store transaction not fetched: ${reason}`);
    this.name = 'NotFetched';
  }
}

type Library = typeof AppStoreLibrary;
type FetchAnswer = ReturnType<AppStoreServerAPIClient['makeFetchRequest']>;

/** Data Apple signed, verified, and whether it was signed for the sandbox. */
export interface Verified<T> {
  payload: T;
  sandbox: boolean;
}

/** A verifier and an API client for one of Apple's environments. */
interface Side {
  verifier: SignedDataVerifier;
  api: AppStoreServerAPIClient;
  sandbox: boolean;
}

/**
 * Apple's App Store Server Library, set up from the configuration: the verifier of everything Apple
 * signs (chained to the configured roots, for this bundle id, app and environment) and the App
 * Store Server API client. A `Production` server that accepts sandbox data has a second pair for the
 * sandbox, as Apple advises: App Review buys with sandbox accounts against the production build, so
 * data that fails only on its environment is verified again against the sandbox, and a transaction
 * the production API does not know is asked of the sandbox API. The library is loaded on first use,
 * so a server without the App Store route never holds it.
 */
export class AppleStore {
  private loaded: Promise<{ lib: Library; main: Side; sandbox: Side | undefined }> | undefined;

  constructor(private readonly config: AppStoreConfig) {}

  private load() {
    this.loaded ??= import('@apple/app-store-server-library').then((lib) => {
      const c = this.config;
      // Production or Sandbox only: the library skips every signature check for Xcode and local testing.
      const production = c.environment === 'Production';
      const main = side(lib, c, production ? lib.Environment.PRODUCTION : lib.Environment.SANDBOX, c.apiUrl);
      const sandbox =
        production && c.acceptSandbox ? side(lib, c, lib.Environment.SANDBOX, c.sandboxApiUrl) : undefined;
      return { lib, main, sandbox };
    });
    return this.loaded;
  }

  /**
   * Verifies with the configured environment, then, when only the environment was wrong and the
   * sandbox is accepted, with the sandbox's verifier.
   */
  private async verified<T>(check: (verifier: SignedDataVerifier) => Promise<T>): Promise<Verified<T>> {
    const { lib, main, sandbox } = await this.load();
    try {
      return { payload: await check(main.verifier), sandbox: main.sandbox };
    } catch (error) {
      const refused = notVerified(lib, error);
      if (refused.reason !== 'environment' || !sandbox) throw refused;
    }
    try {
      return { payload: await check(sandbox.verifier), sandbox: true };
    } catch (error) {
      throw notVerified(lib, error);
    }
  }

  /** Apple's signed transaction, verified and decoded; {@link NotVerified} when it is not Apple's for this app. */
  transaction(signed: string): Promise<Verified<JWSTransactionDecodedPayload>> {
    return this.verified((v) => v.verifyAndDecodeTransaction(signed));
  }

  /** A notification's signed payload, verified and decoded. */
  notification(signedPayload: string): Promise<Verified<ResponseBodyV2DecodedPayload>> {
    return this.verified((v) => v.verifyAndDecodeNotification(signedPayload));
  }

  /**
   * Asks Apple's API for a transaction (Get Transaction Info) and verifies the signed transaction it
   * answers; one the production API does not know is asked of the sandbox API when the sandbox is
   * accepted.
   */
  async fetchTransaction(transactionId: string): Promise<Verified<JWSTransactionDecodedPayload>> {
    const { lib, main, sandbox } = await this.load();
    let signed: string;
    try {
      signed = await ask(lib, main, transactionId);
    } catch (error) {
      if (!(error instanceof NotFetched && error.reason === 'unknown_transaction' && sandbox)) throw error;
      signed = await ask(lib, sandbox, transactionId);
    }
    return this.transaction(signed);
  }

  /**
   * Some transaction id of the app receipt (the library reads it without checking the receipt, which
   * only serves to ask Apple); undefined when the receipt holds no in-app purchase or is not one.
   */
  async transactionIdOfReceipt(receipt: string): Promise<string | undefined> {
    const { lib } = await this.load();
    try {
      return new lib.ReceiptUtility().extractTransactionIdFromAppReceipt(receipt) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Apple's names for transaction types and notifications. */
  async library(): Promise<Library> {
    return (await this.load()).lib;
  }
}

/** The verifier and API client of one environment. */
function side(lib: Library, c: AppStoreConfig, environment: AppStoreLibrary.Environment, apiUrl?: string): Side {
  const verifier = new lib.SignedDataVerifier(
    c.rootCertificates,
    c.onlineChecks,
    environment,
    c.bundleId,
    c.appAppleId,
  );
  // The client's address is Apple's for the environment; a configured one (a local fake in tests)
  // is reached through the client's own hook for requests, with everything else (the signed bearer
  // token, the answer's checks) left to the library.
  class Client extends lib.AppStoreServerAPIClient {
    protected override makeFetchRequest(
      path: string,
      query: URLSearchParams,
      method: string,
      body: string | Buffer | undefined,
      headers: Record<string, string>,
    ): FetchAnswer {
      if (!apiUrl) return super.makeFetchRequest(path, query, method, body, headers);
      return fetch(`${apiUrl}${path}?${query.toString()}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : new Uint8Array(body) }),
        signal: AbortSignal.timeout(20_000),
      }) as unknown as FetchAnswer;
    }
  }
  const api = new Client(c.privateKey, c.keyId, c.issuerId, c.bundleId, environment);
  return { verifier, api, sandbox: environment === lib.Environment.SANDBOX };
}

/** Get Transaction Info on one environment's API: the signed transaction, not yet verified. */
async function ask(lib: Library, on: Side, transactionId: string): Promise<string> {
  let signed: string | undefined;
  try {
    signed = (await on.api.getTransactionInfo(transactionId)).signedTransactionInfo;
  } catch (error) {
    if (error instanceof lib.APIException) {
      const unknown = error.httpStatusCode === 404 || error.httpStatusCode === 400;
      throw new NotFetched(unknown ? 'unknown_transaction' : 'store_unavailable', error.httpStatusCode, error.apiError);
    }
    throw new NotFetched('store_unavailable');
  }
  if (!signed) throw new NotFetched('unknown_transaction');
  return signed;
}

function notVerified(lib: Library, error: unknown): NotVerified {
  if (!(error instanceof lib.VerificationException)) return new NotVerified('signature');
  switch (error.status) {
    case lib.VerificationStatus.INVALID_APP_IDENTIFIER:
      return new NotVerified('bundle_id');
    case lib.VerificationStatus.INVALID_ENVIRONMENT:
      return new NotVerified('environment');
    case lib.VerificationStatus.RETRYABLE_VERIFICATION_FAILURE:
      return new NotVerified('unverifiable');
    default:
      return new NotVerified('signature');
  }
}
