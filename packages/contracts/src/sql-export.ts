import { z } from 'zod'
import { SQL_MAX_QUERY_LENGTH } from './values/sql.js'
import { SQL_EXPORT_FORMATS } from './values/sql-export.js'
import { ProjectRef } from './common.js'
export * from './values/sql-export.js'

/**
 * Exporting a query's whole result (issue 15 point 5), streamed by the server instead of built from
 * the rows the browser holds. `POST /platform/pg-meta/{ref}/query/export` starts the export on the
 * read-only connection and answers once the first bytes exist (so a Postgres error is a plain 400);
 * the browser then opens the one-time `url`, whose answer is an attachment its download manager
 * writes to disk as it arrives.
 */
export const SqlExportBody = z.strictObject({
  query: z
    .string({ error: 'query is required' })
    .max(SQL_MAX_QUERY_LENGTH, `query must be at most ${SQL_MAX_QUERY_LENGTH} characters`)
    .refine((sql) => sql.trim().length > 0, 'query cannot be empty'),
  format: z.enum(SQL_EXPORT_FORMATS, { error: 'format must be csv or json' }),
  /** Base name of the downloaded file, without extension (the snippet's name). */
  file_name: z.string({ error: 'file_name must be a string' }).max(200, 'file_name must be at most 200 characters').optional(),
})
export type SqlExportBody = z.output<typeof SqlExportBody>

export const SqlExportTicket = z.object({
  /** Where the file is streamed from: valid once, for a short time, for the caller who asked. */
  url: z.string(),
  file_name: z.string(),
})
export type SqlExportTicket = z.infer<typeof SqlExportTicket>

export const SqlExportParams = z.object({ ref: ProjectRef, token: z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'Unknown export') })
