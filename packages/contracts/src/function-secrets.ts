import { z } from 'zod'

/**
 * Edge function secrets (Management API: /v1/projects/{ref}/secrets). Values go in, never come
 * back: GET answers each value's SHA-256 hex digest, as the hosted API does.
 */
export const FUNCTION_SECRET_LIMITS = {
  maxNameLength: 256,
  maxValueLength: 24_576,
  /** Per project: a function's environment stays small. */
  maxSecrets: 100,
} as const

export const FunctionSecretName = z
  .string({ error: 'name must be a string' })
  .min(1, 'name is required')
  .max(FUNCTION_SECRET_LIMITS.maxNameLength, `name must be at most ${FUNCTION_SECRET_LIMITS.maxNameLength} characters`)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "name must start with a letter or '_' and hold only letters, digits and '_'")
  .refine((name) => !/^SUPABASE_/i.test(name), 'Secret name must not start with the SUPABASE_ prefix.')

export const FunctionSecretResponse = z.object({ name: z.string(), value: z.string(), updated_at: z.string().optional() })
export type FunctionSecretResponse = z.infer<typeof FunctionSecretResponse>

export const CreateFunctionSecretsBody = z
  .array(
    z.object({
      name: FunctionSecretName,
      value: z.string({ error: 'value must be a string' }).max(FUNCTION_SECRET_LIMITS.maxValueLength, `value must be at most ${FUNCTION_SECRET_LIMITS.maxValueLength} characters`),
    }),
    { error: 'Expected an array of {name, value}' },
  )
  .min(1, 'Expected at least one secret')
  .max(FUNCTION_SECRET_LIMITS.maxSecrets, `At most ${FUNCTION_SECRET_LIMITS.maxSecrets} secrets at once`)
export type CreateFunctionSecretsBody = z.infer<typeof CreateFunctionSecretsBody>

export const DeleteFunctionSecretsBody = z
  .array(z.string({ error: 'Expected an array of secret names' }).min(1).max(FUNCTION_SECRET_LIMITS.maxNameLength), { error: 'Expected an array of secret names' })
  .min(1, 'Expected at least one secret name')
  .max(FUNCTION_SECRET_LIMITS.maxSecrets)
export type DeleteFunctionSecretsBody = z.infer<typeof DeleteFunctionSecretsBody>
