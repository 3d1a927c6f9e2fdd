import type { SqlExportFormat, SqlExportTicket } from '@stratum/contracts'
import { useMutation } from '@tanstack/react-query'
import { startDownload } from '../../lib/download'
import { request } from '../request'

export interface ExportQueryVariables {
  ref: string
  /** One select (SELECT, WITH, VALUES or TABLE): the statement whose result is exported whole. */
  query: string
  format: SqlExportFormat
  /** Base name of the file (the snippet's name). */
  fileName: string
}

/**
 * Exports a query's whole result, streamed by the server: POST .../query/export starts it (a
 * Postgres error is thrown here with Postgres's message), then the one-time link it answers is
 * handed to the browser's download manager, which writes the file to disk as it arrives; the page
 * never holds the rows.
 */
export async function exportQuery({ ref, query, format, fileName }: ExportQueryVariables): Promise<SqlExportTicket> {
  const ticket = await request('POST /platform/pg-meta/{ref}/query/export', { params: { ref }, body: { query, format, file_name: fileName } })
  startDownload(ticket.url)
  return ticket
}

export function useExportQuery() {
  return useMutation({ mutationFn: exportQuery })
}
