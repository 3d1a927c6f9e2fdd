import type { SqlColumn, SqlQueryResponse, SqlStatementResult, SqlStreamFrame } from '@stratum/contracts'

type Row = Record<string, unknown>

/** What has arrived of a streamed run: each result's columns and rows so far. */
export interface PartialResults {
  results: Array<{ columns: SqlColumn[]; rows: Row[] }>
  rowCount: number
}

/** Progress is reported at most this often (the first rows at once): the grid re-renders on each. */
const PROGRESS_INTERVAL_MS = 150

/**
 * Reads the query route's NDJSON frames (contracts SQL_STREAM_MEDIA_TYPE) as they arrive,
 * reporting the rows so far, and answers the status and body of the end frame with the streamed
 * rows put back into its results, i.e. what the plain JSON answer would have been.
 */
export async function readQueryStream(body: ReadableStream<Uint8Array>, onProgress: (partial: PartialResults) => void): Promise<{ status: number; body: unknown }> {
  const partial: PartialResults = { results: [], rowCount: 0 }
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  let end: Extract<SqlStreamFrame, { kind: 'end' }> | null = null
  let reported = 0
  let lastReport = 0

  const take = (frame: SqlStreamFrame) => {
    if (frame.kind === 'columns') partial.results[frame.result] = { columns: frame.columns, rows: [] }
    else if (frame.kind === 'rows') {
      const target = (partial.results[frame.result] ??= { columns: [], rows: [] })
      for (const row of frame.rows) target.rows.push(row)
      partial.rowCount += frame.rows.length
    } else end = frame
  }

  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffered += decoder.decode(value, { stream: true })
    let newline = buffered.indexOf('\n')
    while (newline >= 0) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      if (line) take(JSON.parse(line) as SqlStreamFrame)
      newline = buffered.indexOf('\n')
    }
    const now = performance.now()
    if (!end && partial.rowCount > reported && (reported === 0 || now - lastReport >= PROGRESS_INTERVAL_MS)) {
      reported = partial.rowCount
      lastReport = now
      // Fresh arrays: the grid sees new rows only when the array changes.
      onProgress({ rowCount: partial.rowCount, results: partial.results.map((result) => result && { columns: result.columns, rows: result.rows.slice() }) })
    }
  }
  buffered += decoder.decode()
  if (buffered.trim()) take(JSON.parse(buffered) as SqlStreamFrame)
  const finished = end as Extract<SqlStreamFrame, { kind: 'end' }> | null
  if (!finished) throw new Error('The query stopped before it finished: the connection to the server was lost.')
  const answer = finished.body as Partial<SqlQueryResponse>
  if (Array.isArray(answer.results)) {
    answer.results = answer.results.map((result: SqlStatementResult, index) => ({ ...result, rows: partial.results[index]?.rows ?? [] }))
  }
  return { status: finished.status, body: answer }
}
