import { z } from 'zod'

export * from './values/logs.js'

/** Query of GET .../analytics/endpoints/logs.all and .../logs (Management API and /platform alike). */
export const LogQueryParams = z.object({
  sql: z.string().max(100_000, 'sql must be at most 100000 characters').optional(),
  iso_timestamp_start: z.iso.datetime({ offset: true, error: 'iso_timestamp_start must be an ISO 8601 timestamp' }).optional(),
  iso_timestamp_end: z.iso.datetime({ offset: true, error: 'iso_timestamp_end must be an ISO 8601 timestamp' }).optional(),
})
export type LogQueryParams = z.infer<typeof LogQueryParams>

/**
 * AnalyticsResponse of the reference: the rows, and beside them the error when the query was refused or failed
 * (HTTP 200 either way, as the field answers; the reference's error is a string, so it is absent on success).
 */
export interface LogQueryResponse {
  result: Record<string, unknown>[]
  error?: string
}
