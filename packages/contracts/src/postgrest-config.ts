import { z } from 'zod'

/** A schema name PostgREST can expose: a plain identifier, not one of Postgres's own. */
const SchemaName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'Schema names are identifiers: letters, digits, _ and $, not starting with a digit')
  .refine((name) => !/^(pg_|information_schema$)/.test(name), 'Postgres system schemas cannot be exposed')

/** `public, extensions`: a comma-separated list of distinct schema names (empty allowed for the search path). */
const SchemaList = (what: string, allowEmpty: boolean) =>
  z.string().superRefine((value, ctx) => {
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
    if (!names.length && !allowEmpty) ctx.addIssue({ code: 'custom', message: `${what} needs at least one schema` })
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: `${what} lists a schema twice` })
    for (const name of names) {
      const parsed = SchemaName.safeParse(name)
      if (!parsed.success) ctx.addIssue({ code: 'custom', message: `${what}: '${name}': ${parsed.error.issues[0]!.message}` })
    }
  })

/** PATCH /v1/projects/{ref}/postgrest and /platform/projects/{ref}/config/postgrest (V1UpdatePostgrestConfigBody). */
export const PostgrestConfigUpdateBody = z
  .object({
    db_schema: SchemaList('Exposed schemas', false).optional(),
    db_extra_search_path: SchemaList('Extra search path', true).optional(),
    max_rows: z.number().int().min(0).max(1_000_000).optional(),
    db_pool: z.number().int().min(0).max(1_000).optional(),
  })
  .strict()
export type PostgrestConfigUpdateBody = z.infer<typeof PostgrestConfigUpdateBody>

/** V1PostgrestConfigResponse; the GET adds jwt_secret for callers who may read secrets (PostgrestConfigWithJWTSecretResponse). */
export const PostgrestConfigResponse = z.object({
  db_schema: z.string(),
  max_rows: z.number().int(),
  db_extra_search_path: z.string(),
  db_pool: z.number().int().nullable(),
  jwt_secret: z.string().optional(),
})
export type PostgrestConfigResponse = z.infer<typeof PostgrestConfigResponse>
