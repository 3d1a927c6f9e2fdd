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

/**
 * Names a secret may not have (compared without regard to case: npm reads `npm_config_*`, HTTP
 * clients `https_proxy`...). A function's secrets become its process's environment, and these names
 * are read by something other than the function's code: the dynamic loader (native code in the
 * process, outside Deno's permissions), Deno itself, its npm and JSR resolution (where modules are
 * downloaded from, around the network deny list), Node compatibility, TLS and proxies; `SUPABASE_`
 * is reserved for the values the platform sets, as on Supabase. Each rule says why it exists.
 */
const REFUSED_SECRET_NAMES: { test: (upper: string) => boolean; rule: string }[] = [
  { test: (n) => n.startsWith('SUPABASE_'), rule: 'Secret name must not start with the SUPABASE_ prefix.' },
  { test: (n) => n.startsWith('LD_') || n.startsWith('DYLD_'), rule: 'names starting with LD_ (or DYLD_) are read by the dynamic loader (LD_PRELOAD, LD_LIBRARY_PATH...)' },
  {
    test: (n) => ['GLIBC_TUNABLES', 'GCONV_PATH', 'HOSTALIASES', 'LOCALDOMAIN', 'RES_OPTIONS', 'RESOLV_HOST_CONF', 'LOCPATH', 'NLSPATH', 'NIS_PATH'].includes(n) || n.startsWith('MALLOC_'),
    rule: 'this name is read by the C library and the dynamic loader (GLIBC_TUNABLES, GCONV_PATH, MALLOC_*, resolver settings)',
  },
  { test: (n) => n.startsWith('DENO_'), rule: 'names starting with DENO_ are read by Deno itself (DENO_DIR, DENO_AUTH_TOKENS, DENO_CERT...)' },
  { test: (n) => n.startsWith('NPM_CONFIG_'), rule: 'names starting with NPM_CONFIG_ (in any case) are read by npm package resolution (NPM_CONFIG_REGISTRY...)' },
  { test: (n) => n === 'JSR_URL', rule: 'JSR_URL is read by JSR package resolution (where jsr: modules are downloaded from)' },
  { test: (n) => n.startsWith('NODE_'), rule: 'names starting with NODE_ are read by Node compatibility (NODE_OPTIONS, NODE_EXTRA_CA_CERTS, NODE_TLS_REJECT_UNAUTHORIZED...)' },
  { test: (n) => n.endsWith('_PROXY'), rule: 'names ending in _PROXY are proxy settings (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY, in any case)' },
  { test: (n) => n.startsWith('SSL_CERT_') || n === 'SSLKEYLOGFILE', rule: 'names starting with SSL_CERT_ (and SSLKEYLOGFILE) are read by TLS' },
  { test: (n) => ['PATH', 'HOME', 'NO_COLOR'].includes(n), rule: 'PATH, HOME and NO_COLOR are set by the platform for Deno' },
]

/**
 * Why a secret may not have this name (a message for the user), or null when it may. The platform
 * also checks it when a function starts: a secret stored before a rule existed is never passed on.
 */
export function refusedSecretName(name: string): string | null {
  const upper = name.toUpperCase()
  const refused = REFUSED_SECRET_NAMES.find((entry) => entry.test(upper))
  if (!refused) return null
  // The SUPABASE_ message is the one the hosted API and dashboard show.
  return refused.rule.startsWith('Secret name ') ? refused.rule : `The secret name ${name} is not allowed: ${refused.rule}`
}

export const FunctionSecretName = z
  .string({ error: 'name must be a string' })
  .min(1, 'name is required')
  .max(FUNCTION_SECRET_LIMITS.maxNameLength, `name must be at most ${FUNCTION_SECRET_LIMITS.maxNameLength} characters`)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "name must start with a letter or '_' and hold only letters, digits and '_'")
  .superRefine((name, ctx) => {
    const rule = refusedSecretName(name)
    if (rule) ctx.addIssue({ code: 'custom', message: rule })
  })

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
