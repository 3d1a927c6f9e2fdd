import type { TableImportError, TableImportResponse } from '@stratum/contracts'
import type { CsvDelimiter } from '@stratum/sql'
import { SERVER_UNREACHABLE } from '../api'
import { routeUrl } from '../request'

/** A refused import: the server's message, and the file's line Postgres stopped at when it said. */
export class CsvImportError extends Error {
  override name = 'CsvImportError'
  constructor(
    message: string,
    readonly status: number,
    readonly line?: number,
  ) {
    super(message)
  }
}

export interface CsvImportRequest {
  ref: string
  schema: string
  table: string
  /** Table columns in the order of the file's fields. */
  columns: readonly string[]
  header: boolean
  delimiter: CsvDelimiter
  file: Blob
  /** Bytes sent so far, of the file's size. */
  onProgress?: (sent: number, total: number) => void
  signal?: AbortSignal
}

export function importUrl(request: Pick<CsvImportRequest, 'ref' | 'schema' | 'table' | 'columns' | 'header' | 'delimiter'>): string {
  const params = new URLSearchParams({ schema: request.schema, table: request.table, header: String(request.header), delimiter: request.delimiter })
  for (const column of request.columns) params.append('columns', column)
  return `${routeUrl('POST /platform/pg-meta/{ref}/tables/import', { params: { ref: request.ref } })}?${params}`
}

/**
 * Uploads a CSV file into a table (POST /platform/pg-meta/{ref}/tables/import). The File itself is
 * the body: the browser streams it from disk, so a file of any size never sits in the page's memory.
 * XMLHttpRequest rather than fetch, for the upload's progress events. Resolves with the rows imported.
 */
export function importCsv(request: CsvImportRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', importUrl(request))
    xhr.setRequestHeader('Content-Type', 'text/csv')
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded, event.lengthComputable ? event.total : request.file.size)
    xhr.onload = () => {
      let payload: unknown
      try {
        payload = JSON.parse(xhr.responseText)
      } catch {
        payload = undefined
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const answer = payload as Partial<TableImportResponse> | null
        if (typeof answer?.rows === 'number') return resolve(answer.rows)
        return reject(new CsvImportError('The server answered the import in an unexpected way', xhr.status))
      }
      // Checked by hand, not with the contract's zod schema: this module is in every page's first load.
      const failure = payload as Partial<TableImportError> | null
      const line = typeof failure?.line === 'number' ? failure.line : undefined
      reject(new CsvImportError(typeof failure?.message === 'string' ? failure.message : `The import failed with status ${xhr.status}`, xhr.status, line))
    }
    xhr.onerror = () => reject(new CsvImportError(SERVER_UNREACHABLE, 0))
    xhr.onabort = () => reject(new DOMException('The import was cancelled', 'AbortError'))
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(request.file)
  })
}
