/**
 * Exporting a query's whole result: formats and texts. Plain values only, no zod: the dashboard
 * imports these without the schemas (see the contracts README).
 */
export const SQL_EXPORT_FORMATS = ['csv', 'json'] as const
export type SqlExportFormat = (typeof SQL_EXPORT_FORMATS)[number]

/** Why a query cannot be exported: COPY takes one query that returns rows, nothing else. */
export const SQL_EXPORT_SINGLE_QUERY_MESSAGE = 'Only a single SELECT, WITH, VALUES or TABLE query can be exported'
