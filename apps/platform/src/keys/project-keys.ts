import { randomBytes, randomUUID } from 'node:crypto'
import type { ApiKeyRole } from '@stratum/contracts'
import { SignJWT, decodeProtectedHeader, errors as joseErrors, exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey, type JWK, type JWTPayload } from 'jose'
import type { SecretBox } from '../control/secret-box.js'
import { inTransaction, type Db, type Queryable } from '../store/db.js'

/** Issuer of every key we sign. */
export const KEY_ISSUER = 'stratum'
/** Keys are long-lived by design (as the field's legacy keys): ten years. */
const KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600

export interface ProjectKeysRow {
  project_ref: string
  jwt_secret_sealed: string
  anon_key: string
  service_role_key_sealed: string
  legacy_enabled: boolean
  created_at: Date
  updated_at: Date
}

/** A project's secret and keys, opened. */
export interface ProjectKeys {
  ref: string
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
  legacyEnabled: boolean
  createdAt: Date
  updatedAt: Date
}

/** 40 random bytes, base64url: 54 characters of [A-Za-z0-9_-]. */
export function newJwtSecret(): string {
  return randomBytes(40).toString('base64url')
}

/** One legacy key: an HS256 JWT with the project's ref and the Postgres role it stands for. */
export async function signKey(secret: string, ref: string, role: ApiKeyRole, issuedAt = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({ ref, role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(KEY_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + KEY_LIFETIME_SECONDS)
    .sign(new TextEncoder().encode(secret))
}

export async function signKeys(secret: string, ref: string): Promise<{ anon: string; serviceRole: string }> {
  const issuedAt = Math.floor(Date.now() / 1000)
  return { anon: await signKey(secret, ref, 'anon', issuedAt), serviceRole: await signKey(secret, ref, 'service_role', issuedAt) }
}

/** Throws unless the key is a valid HS256 JWT of this project and role, signed with the secret. */
export async function verifyKey(secret: string, key: string, ref: string, role: ApiKeyRole): Promise<void> {
  const { payload } = await jwtVerify(key, new TextEncoder().encode(secret), { issuer: KEY_ISSUER, algorithms: ['HS256'] })
  if (payload.ref !== ref || payload.role !== role) throw new Error(`The ${role} key does not name this project and role`)
}

function open(box: SecretBox, row: ProjectKeysRow): ProjectKeys {
  return {
    ref: row.project_ref,
    jwtSecret: box.open(row.jwt_secret_sealed),
    anonKey: row.anon_key,
    serviceRoleKey: box.open(row.service_role_key_sealed),
    legacyEnabled: row.legacy_enabled,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * The project's secret and keys, created on first use (for projects made before keys existed,
 * and for new ones). Concurrent first uses agree: the first insert wins, the others read it.
 */
export async function ensureProjectKeys(db: Queryable, box: SecretBox, ref: string): Promise<ProjectKeys> {
  const existing = await db.query<ProjectKeysRow>('SELECT * FROM project_api_keys WHERE project_ref = $1', [ref])
  if (existing.rows[0]) return open(box, existing.rows[0])
  const secret = newJwtSecret()
  const keys = await signKeys(secret, ref)
  await db.query(
    `INSERT INTO project_api_keys (project_ref, jwt_secret_sealed, anon_key, service_role_key_sealed)
     VALUES ($1, $2, $3, $4) ON CONFLICT (project_ref) DO NOTHING`,
    [ref, box.seal(secret), keys.anon, box.seal(keys.serviceRole)],
  )
  const { rows } = await db.query<ProjectKeysRow>('SELECT * FROM project_api_keys WHERE project_ref = $1', [ref])
  return open(box, rows[0]!)
}

export async function setLegacyEnabled(db: Queryable, box: SecretBox, ref: string, enabled: boolean): Promise<boolean> {
  await ensureProjectKeys(db, box, ref)
  const { rows } = await db.query<{ legacy_enabled: boolean }>(
    `UPDATE project_api_keys SET legacy_enabled = $2, updated_at = now() WHERE project_ref = $1 RETURNING legacy_enabled`,
    [ref, enabled],
  )
  return rows[0]!.legacy_enabled
}

/*
 * Asymmetric JWT signing keys, as Supabase has them next to the legacy secret: ES256 or RS256 keys whose public halves
 * are published at /auth/v1/.well-known/jwks.json. The key `in_use` signs the auth service's access tokens (with its
 * `kid`); `standby` keys are published before they sign, so clients and services know them in advance;
 * `previously_used` keys still verify the tokens they signed; `revoked` keys verify nothing. The legacy JWT secret is
 * one of them (HS256, never published): in use until an asymmetric key is, and it always verifies, because the
 * project's anon and service_role keys are signed with it.
 *
 * The keys live beside the auth settings (project_auth_config.settings.signing_keys, private halves sealed), whose
 * writes notify the gateway's directory: a new GatewayProject object after each change is what drops the key set
 * cached for the old one.
 */

export type SigningAlgorithm = 'ES256' | 'RS256' | 'HS256'
export type SigningKeyStatus = 'in_use' | 'standby' | 'previously_used' | 'revoked'

/** One signing key as the Management API answers it (SigningKeyResponse). */
export interface SigningKeyInfo {
  id: string
  algorithm: SigningAlgorithm
  status: SigningKeyStatus
  public_jwk: JWK | null
  created_at: string
  updated_at: string
}

/** What is stored of a key: its answer, and the private JWK sealed (none for the legacy secret). */
export interface StoredSigningKey extends SigningKeyInfo {
  legacy?: boolean
  private_jwk_sealed?: string
}

/** A project's keys, opened for signing and verifying. */
export interface SigningKeySet {
  /** The asymmetric key that signs access tokens; null: the legacy secret signs them (HS256). */
  signer: { kid: string; alg: 'ES256' | 'RS256'; key: CryptoKey } | null
  /** The asymmetric keys that verify (in use, standby, previously used), by kid. */
  verifiers: Map<string, { alg: 'ES256' | 'RS256'; key: CryptoKey }>
  /** Their public JWKs, as /.well-known/jwks.json publishes them. */
  jwks: JWK[]
}

/** The part of a project (GatewayProject) that verification needs; the object itself keys the cache. */
export interface ProjectJwtKeys {
  ref: string
  jwtSecret: string
  /** The set when the caller already loaded it (a directory that carries it); otherwise it is loaded once per object. */
  signingKeys?: SigningKeySet
}

const EMPTY_SET: SigningKeySet = { signer: null, verifiers: new Map(), jwks: [] }

/** Where keys are read from: set once by the auth service at start (it owns the platform database handle). */
let keyStore: { db: Queryable; box: SecretBox } | null = null

export function useSigningKeyStore(db: Queryable, box: SecretBox): void {
  keyStore = { db, box }
}

const loadedSets = new WeakMap<object, Promise<SigningKeySet>>()

/** The project's signing keys, opened: read once per project object (a change of the project makes a new object). */
export function signingKeySet(project: ProjectJwtKeys): Promise<SigningKeySet> {
  if (project.signingKeys) return Promise.resolve(project.signingKeys)
  let set = loadedSets.get(project)
  if (!set) {
    const store = keyStore
    set = store ? loadSigningKeySet(store.db, store.box, project.ref) : Promise.resolve(EMPTY_SET)
    loadedSets.set(project, set)
    set.catch(() => loadedSets.delete(project))
  }
  return set
}

/** Reads and opens a project's signing keys. */
export async function loadSigningKeySet(db: Queryable, box: SecretBox, ref: string): Promise<SigningKeySet> {
  const keys = await storedSigningKeys(db, ref)
  const set: SigningKeySet = { signer: null, verifiers: new Map(), jwks: [] }
  for (const key of keys) {
    if (key.legacy || key.algorithm === 'HS256' || !key.public_jwk || key.status === 'revoked') continue
    const alg = key.algorithm
    const publicKey = (await importJWK({ ...key.public_jwk, alg }, alg)) as CryptoKey
    set.verifiers.set(key.id, { alg, key: publicKey })
    set.jwks.push(key.public_jwk)
    if (key.status === 'in_use' && key.private_jwk_sealed) {
      const privateJwk = JSON.parse(box.open(key.private_jwk_sealed)) as JWK
      set.signer = { kid: key.id, alg, key: (await importJWK(privateJwk, alg)) as CryptoKey }
    }
  }
  return set
}

async function storedSigningKeys(db: Queryable, ref: string): Promise<StoredSigningKey[]> {
  const { rows } = await db.query<{ keys: StoredSigningKey[] | null }>(`SELECT settings -> 'signing_keys' AS keys FROM project_auth_config WHERE project_ref = $1`, [ref])
  return rows[0]?.keys ?? []
}

const UNKNOWN_KEY = () => new joseErrors.JWSSignatureVerificationFailed('no signing key of this project has that kid')

/**
 * Verifies a JWT of the project: HS* with the legacy secret (the algorithms `hmac` allows; HS256 unless a service
 * accepts more, as Realtime does), ES256/RS256 with the signing key its `kid` names. Throws jose's errors (expired,
 * bad signature, malformed), which each service turns into its own refusal.
 */
export async function verifyProjectJwt(
  project: ProjectJwtKeys,
  token: string,
  options: { hmac?: string[]; currentDate?: Date } = {},
): Promise<JWTPayload> {
  const header = decodeProtectedHeader(token)
  const hmac = options.hmac ?? ['HS256']
  if (typeof header.alg === 'string' && hmac.includes(header.alg)) {
    return (await jwtVerify(token, new TextEncoder().encode(project.jwtSecret), { algorithms: hmac, currentDate: options.currentDate })).payload
  }
  if ((header.alg !== 'ES256' && header.alg !== 'RS256') || typeof header.kid !== 'string') throw new joseErrors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed')
  const verifier = (await signingKeySet(project)).verifiers.get(header.kid)
  if (!verifier || verifier.alg !== header.alg) throw UNKNOWN_KEY()
  return (await jwtVerify(token, verifier.key, { algorithms: [verifier.alg], currentDate: options.currentDate })).payload
}

const MAX_CACHED_CLAIMS = 10_000
const verifiedTokens = new Map<string, { by: unknown; claims: JWTPayload }>()

/**
 * The claims of a project JWT (HS256 legacy or an asymmetric key), or null when it does not verify or has expired.
 * Remembered per token, for the same secret (HS256) or the same project object (asymmetric: a key change makes a new
 * one), so a client that repeats its token pays for the signature once.
 */
export async function verifiedProjectClaims(project: ProjectJwtKeys, token: string): Promise<JWTPayload | null> {
  const known = verifiedTokens.get(token)
  if (known && (known.by === project.jwtSecret || known.by === project) && (known.claims.exp === undefined || known.claims.exp * 1000 > Date.now())) {
    return known.claims
  }
  try {
    const claims = await verifyProjectJwt(project, token)
    if (verifiedTokens.size >= MAX_CACHED_CLAIMS) verifiedTokens.delete(verifiedTokens.keys().next().value as string)
    verifiedTokens.set(token, { by: isHmacToken(token) ? project.jwtSecret : project, claims })
    return claims
  } catch {
    return null
  }
}

function isHmacToken(token: string): boolean {
  try {
    return String(decodeProtectedHeader(token).alg).startsWith('HS')
  } catch {
    return false
  }
}

/** Signs claims with the project's current key: its asymmetric key in use (with `kid`), else the legacy secret. */
export async function signProjectJwt(project: ProjectJwtKeys, jwt: SignJWT): Promise<string> {
  const { signer } = await signingKeySet(project)
  if (!signer) return jwt.setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(project.jwtSecret))
  return jwt.setProtectedHeader({ alg: signer.alg, typ: 'JWT', kid: signer.kid }).sign(signer.key)
}

/**
 * What PostgREST's jwt-secret should be for the project: the legacy secret alone while no asymmetric key verifies,
 * else a JWKS with the secret as an `oct` key beside the public keys (PostgREST accepts a JWKS there).
 */
export function postgrestJwtSecret(jwtSecret: string, set: SigningKeySet): string {
  if (!set.jwks.length) return jwtSecret
  return JSON.stringify({ keys: [{ kty: 'oct', k: Buffer.from(jwtSecret).toString('base64url'), alg: 'HS256' }, ...set.jwks] })
}

/* The Management API's /v1/projects/{ref}/config/auth/signing-keys: listing, creating, rotating, removing. */

/** A refusal of a signing-key change, with the status the route answers. */
export class SigningKeyError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message)
  }
}

const infoOf = ({ legacy: _legacy, private_jwk_sealed: _sealed, ...info }: StoredSigningKey): SigningKeyInfo => info

/**
 * Runs a change of the project's keys in one transaction (the settings row locked), the legacy secret listed first as
 * a key of its own (in use while no asymmetric key is).
 */
async function changeKeys<T>(db: Db, ref: string, change: (keys: StoredSigningKey[]) => Promise<T> | T): Promise<T> {
  return inTransaction(db, async (client) => {
    await client.query(`INSERT INTO project_auth_config (project_ref, settings) VALUES ($1, '{}') ON CONFLICT (project_ref) DO NOTHING`, [ref])
    const { rows } = await client.query<{ keys: StoredSigningKey[] | null }>(
      `SELECT settings -> 'signing_keys' AS keys FROM project_auth_config WHERE project_ref = $1 FOR UPDATE`,
      [ref],
    )
    const keys = rows[0]?.keys ?? []
    const before = JSON.stringify(keys)
    if (!keys.some((key) => key.legacy)) {
      const now = new Date().toISOString()
      const anyInUse = keys.some((key) => key.status === 'in_use')
      keys.unshift({ id: randomUUID(), algorithm: 'HS256', status: anyInUse ? 'previously_used' : 'in_use', public_jwk: null, created_at: now, updated_at: now, legacy: true })
    }
    const result = await change(keys)
    if (JSON.stringify(keys) !== before) {
      await client.query(`UPDATE project_auth_config SET settings = jsonb_set(settings, '{signing_keys}', $2::jsonb), updated_at = now() WHERE project_ref = $1`, [
        ref,
        JSON.stringify(keys),
      ])
    }
    return result
  })
}

export async function listSigningKeys(db: Db, ref: string): Promise<SigningKeyInfo[]> {
  return changeKeys(db, ref, (keys) => keys.map(infoOf))
}

export async function legacySigningKey(db: Db, ref: string): Promise<SigningKeyInfo> {
  return changeKeys(db, ref, (keys) => infoOf(keys.find((key) => key.legacy)!))
}

export async function getSigningKey(db: Db, ref: string, id: string): Promise<SigningKeyInfo> {
  return changeKeys(db, ref, (keys) => infoOf(found(keys, id)))
}

function found(keys: StoredSigningKey[], id: string): StoredSigningKey {
  const key = keys.find((candidate) => candidate.id === id)
  if (!key) throw new SigningKeyError(404, 'Signing key not found')
  return key
}

/** Puts `key` in use; the key in use until now becomes previously used (it still verifies what it signed). */
function promote(keys: StoredSigningKey[], key: StoredSigningKey, now: string): void {
  for (const other of keys) {
    if (other !== key && other.status === 'in_use') Object.assign(other, { status: 'previously_used', updated_at: now })
  }
  Object.assign(key, { status: 'in_use', updated_at: now })
}

/** At most this many keys per project (revoked ones included until removed). */
const MAX_SIGNING_KEYS = 20

/** POST signing-keys: a new ES256 or RS256 key (generated, or the private JWK given), standby unless asked in use. */
export async function createSigningKey(
  db: Db,
  box: SecretBox,
  ref: string,
  body: { algorithm: string; status?: 'in_use' | 'standby'; private_jwk?: JWK },
): Promise<SigningKeyInfo> {
  const algorithm = body.algorithm
  if (algorithm !== 'ES256' && algorithm !== 'RS256') {
    throw new SigningKeyError(400, `${algorithm} signing keys are not offered on this platform: create an ES256 or RS256 key`)
  }
  const id = randomUUID()
  let privateJwk: JWK
  if (body.private_jwk) {
    const given = body.private_jwk
    const fits = algorithm === 'ES256' ? given.kty === 'EC' && given.crv === 'P-256' : given.kty === 'RSA'
    if (!fits || !given.d) throw new SigningKeyError(400, `private_jwk is not a private ${algorithm} key`)
    privateJwk = { ...given, kid: id, alg: algorithm }
    if (!(await signsAndVerifies(privateJwk, algorithm))) throw new SigningKeyError(400, `private_jwk is not a valid ${algorithm} key`)
  } else {
    const pair = await generateKeyPair(algorithm, { extractable: true, ...(algorithm === 'RS256' ? { modulusLength: 2048 } : {}) })
    privateJwk = { ...(await exportJWK(pair.privateKey)), kid: id, alg: algorithm }
  }
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ext: _ext, use: _use, ...publicPart } = privateJwk
  const publicJwk: JWK = { ...publicPart, kid: id, alg: algorithm, use: 'sig', key_ops: ['verify'], ext: true }
  const privateStored: JWK = { ...privateJwk, kid: id, alg: algorithm }
  delete privateStored.key_ops
  return changeKeys(db, ref, (keys) => {
    if (keys.length >= MAX_SIGNING_KEYS) throw new SigningKeyError(400, `A project has at most ${MAX_SIGNING_KEYS} signing keys: remove revoked ones first`)
    const now = new Date().toISOString()
    const key: StoredSigningKey = { id, algorithm, status: 'standby', public_jwk: publicJwk, created_at: now, updated_at: now, private_jwk_sealed: box.seal(JSON.stringify(privateStored)) }
    keys.push(key)
    if (body.status === 'in_use') promote(keys, key, now)
    return infoOf(key)
  })
}

/**
 * Whether a given private JWK signs a token that its own public half verifies (a key of the wrong size, or whose
 * private and public parts disagree, would otherwise fail every sign-in once in use).
 */
async function signsAndVerifies(jwk: JWK, alg: 'ES256' | 'RS256'): Promise<boolean> {
  try {
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ...publicPart } = jwk
    const { key_ops: _privateOps, ...privatePart } = jwk
    const token = await new SignJWT({}).setProtectedHeader({ alg }).sign((await importJWK(privatePart, alg)) as CryptoKey)
    await jwtVerify(token, (await importJWK(publicPart, alg)) as CryptoKey, { algorithms: [alg] })
    return true
  } catch {
    return false
  }
}

/**
 * PATCH signing-keys/{id}: a standby (or previously used) key goes in use, the one in use becoming previously used; a
 * key not in use may be revoked; a key in use changes only by putting another in use. The legacy secret is never
 * revoked here: the project's anon and service_role keys are signed with it.
 */
export async function updateSigningKeyStatus(db: Db, ref: string, id: string, status: SigningKeyStatus): Promise<SigningKeyInfo> {
  return changeKeys(db, ref, (keys) => {
    const key = found(keys, id)
    const now = new Date().toISOString()
    if (key.status === status) return infoOf(key)
    if (status === 'in_use') {
      if (key.status === 'revoked') throw new SigningKeyError(400, 'A revoked signing key cannot be used again')
      promote(keys, key, now)
    } else if (key.status === 'in_use') {
      throw new SigningKeyError(400, 'The signing key in use changes only by putting another key in use')
    } else if (status === 'revoked') {
      if (key.legacy) throw new SigningKeyError(400, "The legacy JWT secret cannot be revoked: the project's anon and service_role keys are signed with it")
      Object.assign(key, { status, updated_at: now })
    } else if (status === 'standby' && key.status === 'previously_used' && !key.legacy) {
      Object.assign(key, { status, updated_at: now })
    } else {
      throw new SigningKeyError(400, `A ${key.status} signing key cannot become ${status}`)
    }
    return infoOf(key)
  })
}

/** DELETE signing-keys/{id}: only a revoked key goes (verifying nothing, it has no use left). */
export async function deleteSigningKey(db: Db, ref: string, id: string): Promise<SigningKeyInfo> {
  return changeKeys(db, ref, (keys) => {
    const key = found(keys, id)
    if (key.status !== 'revoked') throw new SigningKeyError(400, 'Only a revoked signing key can be removed: revoke it first')
    keys.splice(keys.indexOf(key), 1)
    return infoOf(key)
  })
}
