import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor'

/*
 * A WebAuthn authenticator in software for the server tests: what navigator.credentials.create() and get() would
 * answer, built here with node:crypto (an ES256 or RS256 key pair, 'none' attestation, authenticator data by the
 * spec's layout, CBOR by a maintained encoder), in the JSON form auth-js sends. Written for these tests; it shares no
 * code with the server's verification (@simplewebauthn/server), so each checks the other.
 */

/** The JSON of a PublicKeyCredentialCreationOptions / RequestOptions, the members this authenticator reads. */
export interface CreationOptionsJson {
  challenge: string
  rp: { id?: string; name: string }
  user: { id: string; name: string; displayName: string }
  pubKeyCredParams: { type: string; alg: number }[]
  excludeCredentials?: { id: string; type: string }[]
}

export interface RequestOptionsJson {
  challenge: string
  rpId?: string
  allowCredentials?: { id: string; type: string }[]
}

export interface RegistrationJson {
  id: string
  rawId: string
  type: 'public-key'
  response: { clientDataJSON: string; attestationObject: string; transports: string[] }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: 'cross-platform'
}

export interface AssertionJson {
  id: string
  rawId: string
  type: 'public-key'
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: 'cross-platform'
}

const UP = 0x01
const UV = 0x04
const AT = 0x40

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32)
  private readonly privateKey: KeyObject
  private readonly cosePublicKey: Uint8Array
  private userHandle: Buffer | null = null
  private signCount = 0

  constructor(
    private readonly rp: { rpId: string; origin: string },
    readonly algorithm: 'ES256' | 'RS256' = 'ES256',
  ) {
    if (algorithm === 'ES256') {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const jwk = publicKey.export({ format: 'jwk' })
      this.privateKey = privateKey
      // COSE_Key, EC2: kty 2, alg -7, crv P-256 (1), x, y.
      this.cosePublicKey = encodeCBOR(
        new Map<number, CBORType>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      )
    } else {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
      const jwk = publicKey.export({ format: 'jwk' })
      this.privateKey = privateKey
      // COSE_Key, RSA: kty 3, alg -257, n, e.
      this.cosePublicKey = encodeCBOR(
        new Map<number, CBORType>([
          [1, 3],
          [3, -257],
          [-1, Buffer.from(jwk.n!, 'base64url')],
          [-2, Buffer.from(jwk.e!, 'base64url')],
        ]),
      )
    }
  }

  get credentialIdBase64Url(): string {
    return b64url(this.credentialId)
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.rp.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  private rpIdHash(rpId = this.rp.rpId): Buffer {
    return createHash('sha256').update(rpId).digest()
  }

  /** navigator.credentials.create(): a new credential for the options' user, attested with 'none'. */
  create(options: CreationOptionsJson, overrides: { origin?: string; rpId?: string } = {}): RegistrationJson {
    const alg = this.algorithm === 'ES256' ? -7 : -257
    if (!options.pubKeyCredParams.some((param) => param.alg === alg)) throw new Error(`The relying party does not offer ${this.algorithm}`)
    if (options.excludeCredentials?.some((credential) => credential.id === this.credentialIdBase64Url)) throw new Error('InvalidStateError: already registered')
    this.userHandle = Buffer.from(options.user.id, 'base64url')
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const authData = Buffer.concat([
      this.rpIdHash(overrides.rpId),
      Buffer.from([UP | UV | AT]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      this.cosePublicKey,
    ])
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]),
    )
    return {
      id: this.credentialIdBase64Url,
      rawId: this.credentialIdBase64Url,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, overrides.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['usb'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    }
  }

  /**
   * navigator.credentials.get(): an assertion over authenticator data and the client data's hash, with the counter one
   * higher each time (`counter` sets it, e.g. to replay an old one).
   */
  get(options: RequestOptionsJson, overrides: { counter?: number; origin?: string } = {}): AssertionJson {
    if (!this.userHandle) throw new Error('No credential: call create() first')
    this.signCount = overrides.counter ?? this.signCount + 1
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(this.signCount)
    const authenticatorData = Buffer.concat([this.rpIdHash(options.rpId ?? this.rp.rpId), Buffer.from([UP | UV]), counter])
    const clientData = this.clientData('webauthn.get', options.challenge, overrides.origin)
    const signature = createSign('SHA256')
      .update(Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]))
      .sign(this.privateKey)
    return {
      id: this.credentialIdBase64Url,
      rawId: this.credentialIdBase64Url,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: b64url(this.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    }
  }

  /** Binds this authenticator to a user handle without registering anything (a credential the server never saw). */
  adopt(userId: string): void {
    this.userHandle = Buffer.from(userId)
  }
}

/** The same assertion with one byte of its signature changed. */
export function withBadSignature(assertion: AssertionJson): AssertionJson {
  const signature = Buffer.from(assertion.response.signature, 'base64url')
  signature[signature.length - 1] = signature[signature.length - 1]! ^ 0x01
  return { ...assertion, response: { ...assertion.response, signature: b64url(signature) } }
}
