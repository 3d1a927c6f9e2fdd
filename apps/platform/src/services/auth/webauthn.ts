import { randomBytes } from 'node:crypto'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { ProjectAuthSettings } from '@stratum/contracts'
import { z } from 'zod'

/*
 * The WebAuthn ceremonies shared by passkeys (passkeys/) and WebAuthn MFA factors (handlers/mfa-webauthn.ts), as
 * GoTrue runs them with go-webauthn: the options a browser's navigator.credentials.create()/get() takes, in their JSON
 * form, and the verification of what the authenticator answers (attestation, client data, RP id hash, signature,
 * counter), done by @simplewebauthn/server rather than CBOR/COSE parsing of our own.
 */

/** The verifier, loaded on the first ceremony answered: its ASN.1 and X.509 code is no cost to a project without passkeys. */
let verifier: Promise<typeof import('@simplewebauthn/server')> | null = null
function library(): Promise<typeof import('@simplewebauthn/server')> {
  verifier ??= import('@simplewebauthn/server').catch((error: unknown) => {
    verifier = null
    throw error
  })
  return verifier
}

/** GoTrue's WebAuthn challenge_expiry_duration (5 minutes): how long a ceremony's challenge answers. */
export const CEREMONY_SECONDS = 300
/** go-webauthn's default ceremony timeout, which the options carry for the browser. */
const TIMEOUT_MS = 300_000

/** The COSE algorithms offered, go-webauthn's defaults in its order: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA. */
export const ALGORITHMS = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8]

/** The relying party of the project's ceremonies. */
export interface RelyingParty {
  id: string
  name: string
  origins: string[]
}

/**
 * The project's relying party (GoTrue's webauthn rp_id, rp_display_name, rp_origins). Until they are set, the site
 * URL's host and origin: the app a project's users sign in to, which is what an unset GoTrue cannot serve at all.
 */
export function relyingParty(settings: Pick<ProjectAuthSettings, 'site_url' | 'webauthn_rp_id' | 'webauthn_rp_display_name' | 'webauthn_rp_origins'>): RelyingParty {
  const site = new URL(settings.site_url)
  const id = (settings.webauthn_rp_id ?? site.hostname).toLowerCase()
  const origins = settings.webauthn_rp_origins
    ? settings.webauthn_rp_origins
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean)
    : [site.origin]
  return { id, name: settings.webauthn_rp_display_name ?? id, origins }
}

/**
 * What the server keeps of a ceremony until it is answered (go-webauthn's SessionData, field for field, so rows read
 * alike whichever server wrote them): the challenge, the RP id it was made for, the user handle and allowed credentials
 * (Go's standard base64), and when it ends.
 */
export interface CeremonyData {
  challenge: string
  rpId: string
  user_id?: string
  allowed_credentials?: string[]
  expires: string
  userVerification: 'preferred'
}

export interface Ceremony {
  data: CeremonyData
  expiresAt: Date
}

/** A new ceremony for the relying party: 32 random bytes of challenge, five minutes to answer. */
export function newCeremony(rp: RelyingParty, userHandle?: Buffer, allowed: Buffer[] = []): Ceremony {
  const expiresAt = new Date(Date.now() + CEREMONY_SECONDS * 1000)
  const data: CeremonyData = { challenge: randomBytes(32).toString('base64url'), rpId: rp.id, expires: expiresAt.toISOString(), userVerification: 'preferred' }
  if (userHandle) data.user_id = userHandle.toString('base64')
  if (allowed.length) data.allowed_credentials = allowed.map((id) => id.toString('base64'))
  return { data, expiresAt }
}

/** The user handle GoTrue gives a user (WebAuthnID): the bytes of the id's text, which assertions carry back. */
export const userHandle = (userId: string): Buffer => Buffer.from(userId, 'utf8')

export interface CredentialDescriptor {
  type: 'public-key'
  id: string
  transports?: string[]
}

export const descriptor = (credentialId: Buffer, transports?: string[]): CredentialDescriptor => ({
  type: 'public-key',
  id: credentialId.toString('base64url'),
  ...(transports?.length ? { transports } : {}),
})

/** PublicKeyCredentialCreationOptions in JSON (what GoTrue answers from go-webauthn's BeginRegistration). */
export function creationOptions(
  rp: RelyingParty,
  ceremony: Ceremony,
  user: { handle: Buffer; name: string; displayName: string },
  exclude: CredentialDescriptor[],
  authenticatorSelection: Record<string, unknown>,
): Record<string, unknown> {
  return {
    rp: { name: rp.name, id: rp.id },
    user: { name: user.name, displayName: user.displayName, id: user.handle.toString('base64url') },
    challenge: ceremony.data.challenge,
    pubKeyCredParams: ALGORITHMS.map((alg) => ({ type: 'public-key', alg })),
    timeout: TIMEOUT_MS,
    ...(exclude.length ? { excludeCredentials: exclude } : {}),
    authenticatorSelection,
    attestation: 'none',
  }
}

/** PublicKeyCredentialRequestOptions in JSON (go-webauthn's BeginLogin / BeginDiscoverableLogin). */
export function requestOptions(ceremony: Ceremony, allow: CredentialDescriptor[]): Record<string, unknown> {
  return {
    challenge: ceremony.data.challenge,
    timeout: TIMEOUT_MS,
    rpId: ceremony.data.rpId,
    ...(allow.length ? { allowCredentials: allow } : {}),
    userVerification: ceremony.data.userVerification,
  }
}

const Base64Url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'not base64url')
const Transports = z.array(z.string().max(32)).max(16).optional()
const Extensions = z.record(z.string(), z.unknown()).optional()

/** A credential's answer to navigator.credentials.create(), as auth-js serializes it (RegistrationResponseJSON). */
const Registration = z.object({
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url.min(1),
    attestationObject: Base64Url.min(1),
    transports: Transports,
    authenticatorData: Base64Url.optional(),
    publicKey: Base64Url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  clientExtensionResults: Extensions,
  authenticatorAttachment: z.string().max(32).nullish(),
})

/** A credential's answer to navigator.credentials.get() (AuthenticationResponseJSON). */
const Assertion = z.object({
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url.min(1),
    authenticatorData: Base64Url.min(1),
    signature: Base64Url.min(1),
    userHandle: Base64Url.nullish(),
  }),
  clientExtensionResults: Extensions,
  authenticatorAttachment: z.string().max(32).nullish(),
})

export type RegistrationJson = z.infer<typeof Registration>
export type AssertionJson = z.infer<typeof Assertion>

/** The answer to a creation ceremony, or null when it is not one (GoTrue: "Invalid credential response"). */
export function parseRegistration(raw: unknown): RegistrationJson | null {
  const parsed = Registration.safeParse(raw)
  return parsed.success ? parsed.data : null
}

export function parseAssertion(raw: unknown): AssertionJson | null {
  const parsed = Assertion.safeParse(raw)
  return parsed.success ? parsed.data : null
}

/** A credential the authenticator created, as the server keeps it. */
export interface NewCredential {
  credentialId: Buffer
  /** The COSE_Key, as go-webauthn keeps it too. */
  publicKey: Buffer
  signCount: number
  transports: string[]
  aaguid: string | null
  attestationType: string
  backupEligible: boolean
  backedUp: boolean
  userVerified: boolean
}

const ZERO_AAGUID = '00000000-0000-0000-0000-000000000000'

/**
 * Verifies a creation ceremony's answer against its challenge: client data (type, challenge, origin), the RP id hash,
 * user presence, the attestation statement and a supported public key. Null when anything fails; user verification is
 * "preferred" (GoTrue's setting), so it is recorded, not required.
 */
export async function verifyCreation(ceremony: CeremonyData, origins: string[], response: RegistrationJson): Promise<NewCredential | null> {
  // Outside the try: a verifier that cannot load is the server's failure, not a refused credential.
  const { verifyRegistrationResponse } = await library()
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: origins,
      expectedRPID: ceremony.rpId,
      expectedType: 'webauthn.create',
      requireUserPresence: true,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    })
    if (!result.verified) return null
    const info = result.registrationInfo
    return {
      credentialId: Buffer.from(info.credential.id, 'base64url'),
      publicKey: Buffer.from(info.credential.publicKey),
      signCount: info.credential.counter,
      transports: response.response.transports ?? [],
      aaguid: info.aaguid && info.aaguid !== ZERO_AAGUID ? info.aaguid : null,
      attestationType: info.fmt,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backedUp: info.credentialBackedUp,
      userVerified: info.userVerified,
    }
  } catch {
    return null
  }
}

/** A stored credential an assertion is checked against. */
export interface StoredCredential {
  credentialId: Buffer
  publicKey: Buffer
  signCount: number
  transports: string[]
}

/**
 * Verifies a request ceremony's answer with the credential's public key: client data, RP id hash, user presence, the
 * signature over authenticator data and client data hash, and a counter that moved forward (a cloned authenticator's
 * stale counter is refused). Answers the new counter, or null.
 */
export async function verifyAssertion(ceremony: CeremonyData, origins: string[], response: AssertionJson, credential: StoredCredential): Promise<{ signCount: number } | null> {
  const { verifyAuthenticationResponse } = await library()
  try {
    const result = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: origins,
      expectedRPID: ceremony.rpId,
      expectedType: 'webauthn.get',
      requireUserVerification: false,
      credential: {
        id: credential.credentialId.toString('base64url'),
        publicKey: new Uint8Array(credential.publicKey),
        counter: credential.signCount,
        transports: credential.transports as never,
      },
    })
    return result.verified ? { signCount: result.authenticationInfo.newCounter } : null
  } catch {
    return null
  }
}

/** The raw id of an answer's credential (its `rawId`, base64url). */
export const rawCredentialId = (response: { rawId: string }): Buffer => Buffer.from(response.rawId, 'base64url')
