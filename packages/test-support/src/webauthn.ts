import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// Authenticator data flags (WebAuthn §6.1).
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** Options as the server hands them out (only the fields a software authenticator reads). */
export interface OptionsJson {
  challenge: string;
  rp?: { id?: string; name?: string };
  rpId?: string;
  user?: { id: string; name: string; displayName: string };
}

/** What to get wrong on purpose, per ceremony. */
export interface Tamper {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** Flip a bit of the signature. */
  badSignature?: boolean;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** Report the user as not verified. */
  noUserVerification?: boolean;
}

/**
 * A software authenticator with one discoverable credential: a real P-256 key pair from node:crypto,
 * an attestation object in the `none` format (CBOR by the WebAuthn library's own codec), and
 * assertions whose client data, authenticator data (relying-party id hash, flags, counter) and
 * signature are made exactly as a device makes them.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private userHandle: string | undefined;
  counter = 0;

  constructor(readonly origin: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]);
    return isoCBOR.encode(cose);
  }

  private clientData(type: string, challenge: string, tamper: Tamper): Buffer {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: tamper.challenge ?? challenge,
        origin: tamper.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** Answers registration options as `navigator.credentials.create()` would, as JSON. */
  create(options: OptionsJson, tamper: Tamper = {}) {
    const rpId = tamper.rpId ?? options.rp?.id ?? new URL(this.origin).hostname;
    this.userHandle = options.user?.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, tamper);
    const flags = UP | AT | (tamper.noUserVerification ? 0 : UV);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      counter,
      Buffer.alloc(16), // AAGUID: none given
      idLength,
      this.credentialId,
      Buffer.from(this.cosePublicKey()),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal' as const],
      },
    };
  }

  /** Answers authentication options as `navigator.credentials.get()` would, as JSON. */
  get(options: OptionsJson, tamper: Tamper = {}) {
    const rpId = tamper.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    this.counter = tamper.counter ?? this.counter + 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tamper);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | (tamper.noUserVerification ? 0 : UV)]), counter]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    if (tamper.badSignature)
      signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}
