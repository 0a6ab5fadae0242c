import type * as AppStoreLibrary from '@apple/app-store-server-library';
import type {
  AppStoreServerAPIClient,
  JWSTransactionDecodedPayload,
  ResponseBodyV2DecodedPayload,
  SignedDataVerifier,
} from '@apple/app-store-server-library';
import type { AppStoreConfig } from '../../../../config.js';

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

/**
 * Apple's App Store Server Library, set up from the configuration: the verifier of everything Apple
 * signs (chained to the configured roots, for this bundle id, app and environment) and the App
 * Store Server API client. The library is loaded on first use, so a server without the App Store
 * route never holds it.
 */
export class AppleStore {
  private loaded: Promise<{ lib: Library; verifier: SignedDataVerifier; api: AppStoreServerAPIClient }> | undefined;

  constructor(private readonly config: AppStoreConfig) {}

  private load() {
    this.loaded ??= import('@apple/app-store-server-library').then((lib) => {
      const c = this.config;
      // Production or Sandbox only: the library skips every signature check for Xcode and local testing.
      const environment = c.environment === 'Production' ? lib.Environment.PRODUCTION : lib.Environment.SANDBOX;
      const verifier = new lib.SignedDataVerifier(
        c.rootCertificates,
        c.onlineChecks,
        environment,
        c.bundleId,
        c.appAppleId,
      );
      const apiUrl = c.apiUrl;
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
      return { lib, verifier, api };
    });
    return this.loaded;
  }

  /** Apple's signed transaction, verified and decoded; {@link NotVerified} when it is not Apple's for this app. */
  async transaction(signed: string): Promise<JWSTransactionDecodedPayload> {
    const { lib, verifier } = await this.load();
    return verifier.verifyAndDecodeTransaction(signed).catch((error: unknown) => {
      throw notVerified(lib, error);
    });
  }

  /** A notification's signed payload, verified and decoded. */
  async notification(signedPayload: string): Promise<ResponseBodyV2DecodedPayload> {
    const { lib, verifier } = await this.load();
    return verifier.verifyAndDecodeNotification(signedPayload).catch((error: unknown) => {
      throw notVerified(lib, error);
    });
  }

  /** Asks Apple's API for a transaction (Get Transaction Info) and verifies the signed transaction it answers. */
  async fetchTransaction(transactionId: string): Promise<JWSTransactionDecodedPayload> {
    const { lib, api } = await this.load();
    let signed: string | undefined;
    try {
      signed = (await api.getTransactionInfo(transactionId)).signedTransactionInfo;
    } catch (error) {
      if (error instanceof lib.APIException) {
        const unknown = error.httpStatusCode === 404 || error.httpStatusCode === 400;
        throw new NotFetched(
          unknown ? 'unknown_transaction' : 'store_unavailable',
          error.httpStatusCode,
          error.apiError,
        );
      }
      throw new NotFetched('store_unavailable');
    }
    if (!signed) throw new NotFetched('unknown_transaction');
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
