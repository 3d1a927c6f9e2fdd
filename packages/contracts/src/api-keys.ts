import { z } from 'zod'
import { API_KEY_ROLES, JWT_SECRET_MIN_LENGTH } from './values/api-keys.js'
export * from './values/api-keys.js'

/**
 * API keys and the JWT secret (the project shell spec's API settings panels: entities, states,
 * permissions, calls, errors; the Management API document for the /v1 shapes).
 */

/** Role names of the legacy keys: anon is public, service_role is secret and bypasses RLS. */
export const ApiKeyRole = z.enum(API_KEY_ROLES)
export type ApiKeyRole = z.infer<typeof ApiKeyRole>

/** Boolean query values arrive as the strings true/false (Management API convention). */
const booleanString = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((v) => v === 'true')

/** GET /v1/projects/{ref}/api-keys?reveal= */
export const ApiKeysQuery = z.object({ reveal: booleanString('reveal').optional() })

/** PUT /v1/projects/{ref}/api-keys/legacy?enabled= */
export const LegacyApiKeysQuery = z.object({ enabled: booleanString('enabled') })

/** ApiKeyResponse of the Management API document: the legacy JWT keys and the publishable and secret keys. */
export const ApiKeyResponse = z.object({
  name: z.string(),
  api_key: z.string().nullable(),
  id: z.string().nullable(),
  type: z.enum(['legacy', 'publishable', 'secret']).nullable(),
  prefix: z.string().nullable(),
  description: z.string().nullable(),
  hash: z.string().nullable(),
  secret_jwt_template: z.record(z.string(), z.unknown()).nullable(),
  inserted_at: z.string().nullable(),
  updated_at: z.string().nullable(),
})
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>

export const LegacyApiKeysResponse = z.object({ enabled: z.boolean() })
export type LegacyApiKeysResponse = z.infer<typeof LegacyApiKeysResponse>

/** One entry of the project settings' service_api_keys. */
export const ServiceApiKey = z.object({ api_key: z.string(), name: z.string(), tags: ApiKeyRole })
export type ServiceApiKey = z.infer<typeof ServiceApiKey>

/**
 * GET /platform/projects/{ref}/settings: what the 'Project API Keys' and 'Project Configuration'
 * panels read. jwt_secret and the service_role entry only for roles with service_api_keys.read.
 */
export const ProjectSettings = z.object({
  ref: z.string(),
  name: z.string(),
  app_config: z.object({
    /** Host and path of the project's API, without the protocol: `${protocol}://${endpoint}`. */
    endpoint: z.string(),
    protocol: z.enum(['http', 'https']),
    db_schema: z.string(),
  }),
  jwt_secret: z.string().optional(),
  service_api_keys: z.array(ServiceApiKey),
})
export type ProjectSettings = z.infer<typeof ProjectSettings>

/** POST (or PATCH, as the reference client sends it) /platform/projects/{ref}/config/secrets */
export const JwtSecretUpdateBody = z.strictObject({
  jwt_secret: z
    .string({ error: 'jwt_secret must be a string' })
    .min(JWT_SECRET_MIN_LENGTH, `JWT secret must be at least ${JWT_SECRET_MIN_LENGTH} characters long`)
    .max(1024, 'JWT secret must be at most 1024 characters long')
    .regex(/^[\x21-\x7e]+$/, 'JWT secret can only contain printable ASCII characters without spaces')
    .optional(),
  change_tracking_id: z.uuid({ error: 'change_tracking_id must be a UUID' }).optional(),
})
export type JwtSecretUpdateBody = z.infer<typeof JwtSecretUpdateBody>

export const JwtSecretUpdateStatus = z.object({
  update_status: z
    .object({
      change_tracking_id: z.string(),
      /** The failure's message when status is Failed; null otherwise. */
      error: z.string().nullable(),
      progress: z.number().int(),
      status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    })
    .nullable(),
})
export type JwtSecretUpdateStatus = z.infer<typeof JwtSecretUpdateStatus>

/**
 * GET /platform/projects/{ref}/api-keys/last-used: when a request through the project's URL last used
 * each key, over the last 24 hours (ISO timestamps); null when none did.
 */
export const ApiKeysLastUsed = z.object({ anon: z.string().nullable(), service_role: z.string().nullable() })
export type ApiKeysLastUsed = z.infer<typeof ApiKeysLastUsed>


const KeyName = z
  .string({ error: 'name is required' })
  .min(4, 'name must be at least 4 characters')
  .max(64, 'name must be at most 64 characters')
  .regex(/^[a-z_][a-z0-9_]+$/, 'name must be lowercase letters, digits and underscores, not starting with a digit')
const KeyDescription = z.string().max(1000, 'description must be at most 1000 characters').nullable()
const JwtTemplate = z.record(z.string(), z.unknown()).nullable()

/** POST /v1/projects/{ref}/api-keys */
export const CreateApiKeyBody = z.strictObject({
  type: z.enum(['publishable', 'secret'], { error: "type must be 'publishable' or 'secret'" }),
  name: KeyName,
  description: KeyDescription.optional(),
  secret_jwt_template: JwtTemplate.optional(),
})
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>

/** PATCH /v1/projects/{ref}/api-keys/{id} */
export const UpdateApiKeyBody = z.strictObject({ name: KeyName.optional(), description: KeyDescription.optional(), secret_jwt_template: JwtTemplate.optional() })
export type UpdateApiKeyBody = z.infer<typeof UpdateApiKeyBody>

/** /v1/projects/{ref}/api-keys/{id}: a publishable or secret key's uuid, or 'anon' / 'service_role' for the legacy ones. */
export const ApiKeyParams = z.object({
  ref: z.string().regex(/^[a-z]{20}$/, 'The project reference is not valid'),
  id: z.union([z.uuid(), z.enum(['anon', 'service_role'])], { error: "The key id must be a UUID, 'anon' or 'service_role'" }),
})

/** DELETE /v1/projects/{ref}/api-keys/{id} */
export const DeleteApiKeyQuery = z.object({
  reveal: booleanString('reveal').optional(),
  was_compromised: booleanString('was_compromised').optional(),
  reason: z.string().max(1000, 'reason must be at most 1000 characters').optional(),
})
