import { z } from 'zod'

/**
 * A project's JWT signing keys, as the Management API shapes them (SigningKeyResponse, CreateSigningKeyBody,
 * UpdateSigningKeyBody): `/v1/projects/{ref}/config/auth/signing-keys`. Served by services/auth/routes.ts with
 * keys/project-keys.ts; the private half of a key never appears in an answer.
 */
export const SIGNING_KEY_ALGORITHMS = ['EdDSA', 'ES256', 'RS256', 'HS256'] as const
export const SIGNING_KEY_STATUSES = ['in_use', 'previously_used', 'revoked', 'standby'] as const

export const SigningKeyResponse = z.object({
  id: z.string(),
  algorithm: z.enum(SIGNING_KEY_ALGORITHMS),
  status: z.enum(SIGNING_KEY_STATUSES),
  /** The public JWK; null for the legacy HS256 secret. */
  public_jwk: z.record(z.string(), z.unknown()).nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type SigningKeyResponse = z.infer<typeof SigningKeyResponse>

export const SigningKeysResponse = z.object({ keys: z.array(SigningKeyResponse) })
export type SigningKeysResponse = z.infer<typeof SigningKeysResponse>

export const CreateSigningKeyBody = z.object({
  algorithm: z.enum(SIGNING_KEY_ALGORITHMS),
  status: z.enum(['in_use', 'standby']).optional(),
  /** An imported private key (EC P-256 for ES256, RSA for RS256); generated when absent. */
  private_jwk: z.record(z.string(), z.unknown()).optional(),
})
export type CreateSigningKeyBody = z.infer<typeof CreateSigningKeyBody>

export const UpdateSigningKeyBody = z.object({ status: z.enum(SIGNING_KEY_STATUSES) })
export type UpdateSigningKeyBody = z.infer<typeof UpdateSigningKeyBody>
