import { z } from 'zod'
import { SchemaName } from './meta.js'

/**
 * Type generation (`GET /v1/projects/{ref}/types/typescript`) and the custom hostname read
 * (`GET /v1/projects/{ref}/custom-hostname`), in the Management API's shapes.
 */

/** `included_schemas`: comma-joined (`public,other`) or repeated; the document's default is `public`. */
export const TypescriptTypesQuery = z.object({
  included_schemas: z
    .union([z.string(), z.array(z.string())], { error: 'included_schemas must be a comma-separated list of schema names' })
    .optional()
    .transform((value) =>
      (value === undefined ? ['public'] : Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(
      z
        .array(SchemaName)
        .min(1, 'included_schemas must name at least one schema')
        .max(100, 'included_schemas may name at most 100 schemas')
        .transform((names) => [...new Set(names)]),
    ),
})
export type TypescriptTypesQuery = z.output<typeof TypescriptTypesQuery>

/** The document's TypescriptResponse. */
export const TypescriptResponse = z.object({ types: z.string() })
export type TypescriptResponse = z.infer<typeof TypescriptResponse>

/** The document's UpdateCustomHostnameResponse (what the hosted API answers when the add-on exists). */
export const CustomHostnameStatus = z.enum([
  '1_not_started',
  '2_initiated',
  '3_challenge_verified',
  '4_origin_setup_completed',
  '5_services_reconfigured',
])
export const CustomHostnameResponse = z.object({
  status: CustomHostnameStatus,
  custom_hostname: z.string(),
  data: z.object({
    success: z.boolean(),
    errors: z.array(z.unknown()),
    messages: z.array(z.unknown()),
    result: z.object({
      id: z.string(),
      hostname: z.string(),
      ssl: z.object({
        status: z.string(),
        validation_records: z.array(z.object({ txt_name: z.string(), txt_value: z.string() })),
        validation_errors: z.array(z.object({ message: z.string() })).optional(),
      }),
      ownership_verification: z.object({ type: z.string(), name: z.string(), value: z.string() }),
      custom_origin_server: z.string(),
      verification_errors: z.array(z.string()).optional(),
      status: z.string(),
    }),
  }),
})
export type CustomHostnameResponse = z.infer<typeof CustomHostnameResponse>

/**
 * Stratum has no custom domain add-on, so the read always answers this (the hosted API's answer for a
 * project without the add-on); the dashboard maps 'not allowed to set up custom domain' to 0_not_allowed.
 */
export const CUSTOM_DOMAIN_NOT_ALLOWED = 'not allowed to set up custom domain'
export function customDomainNotAllowedMessage(ref: string): string {
  return `Project ${ref} is ${CUSTOM_DOMAIN_NOT_ALLOWED}: the custom domain add-on is not available on this Stratum server`
}
