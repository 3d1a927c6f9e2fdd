import { z } from 'zod'

/**
 * The table editor's CSV import: `POST /platform/pg-meta/{ref}/tables/import` with the file as the
 * raw body (Content-Type text/csv), streamed into COPY ... FROM STDIN in one transaction. The
 * target and the columns (in the file's order) travel in the query string: `columns` once per column.
 */

export * from './values/table-import.js'

const Name = (what: string) => z.string({ error: `${what} is required` }).min(1, `${what} cannot be empty`).max(63, `${what} must be at most 63 characters`)

export const TableImportQuery = z.strictObject({
  schema: Name('schema'),
  table: Name('table'),
  columns: z
    .union([Name('Each column'), z.array(Name('Each column')).min(1, 'columns is required').max(1600, 'A table has at most 1600 columns')], { error: 'columns is required' })
    .transform((value) => (Array.isArray(value) ? value : [value])),
  /** The first line holds names, not data. */
  header: z.enum(['true', 'false'], { error: 'header must be true or false' }).default('true').transform((value) => value === 'true'),
  delimiter: z.enum([',', ';', '\t', '|'], { error: 'delimiter must be one of , ; | or a tab' }).default(','),
})
export type TableImportQuery = z.output<typeof TableImportQuery>

export const TableImportResponse = z.object({ rows: z.number() })
export type TableImportResponse = z.infer<typeof TableImportResponse>

/** A refused import: Postgres's message, and the file's line COPY stopped at (its CONTEXT) when it said. */
export const TableImportError = z.object({ message: z.string(), code: z.string().optional(), line: z.number().optional(), context: z.string().optional() })
export type TableImportError = z.infer<typeof TableImportError>
