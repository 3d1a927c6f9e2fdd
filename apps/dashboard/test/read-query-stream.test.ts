import { describe, expect, it } from 'vitest'
import { readQueryStream, type PartialResults } from '../src/data/sql/readQueryStream'

/** The bytes of a body, cut into chunks at the given sizes (splitting lines and characters). */
function streamOf(text: string, chunkSize: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunkSize) controller.enqueue(bytes.slice(at, at + chunkSize))
      controller.close()
    },
  })
}

const frames = [
  { kind: 'columns', result: 0, columns: [{ name: 'n', data_type_id: 23 }, { name: 'label', data_type_id: 25 }] },
  { kind: 'rows', result: 0, rows: [{ n: 1, label: 'é one' }, { n: 2, label: 'two\nlines' }] },
  { kind: 'rows', result: 0, rows: [{ n: 3, label: '😀' }] },
  { kind: 'columns', result: 1, columns: [{ name: 'x', data_type_id: 23 }] },
  { kind: 'rows', result: 1, rows: [{ x: 9 }] },
  {
    kind: 'end',
    status: 400,
    body: {
      results: [{ statement: 'select ...', start: 0, end: 10, command: 'SELECT', rowCount: 3, columns: [], rows: [], elapsed_ms: 1, truncated: false }],
      read_only: true,
      truncated: false,
      message: 'division by zero',
      error: { message: 'division by zero', statement_index: 1 },
    },
  },
]
const text = frames.map((frame) => JSON.stringify(frame)).join('\n') + '\n'

describe('readQueryStream', () => {
  for (const chunkSize of [1, 7, 64, 100_000]) {
    it(`puts the streamed rows back into the end frame's results (chunks of ${chunkSize} bytes)`, async () => {
      const progress: PartialResults[] = []
      const answer = await readQueryStream(streamOf(text, chunkSize), (partial) => progress.push(partial))
      expect(answer.status).toBe(400)
      const body = answer.body as { results: Array<{ rows: unknown[] }>; message: string }
      expect(body.message).toBe('division by zero')
      // The failed statement's rows (result 1) have no result in the end frame: they are dropped.
      expect(body.results).toHaveLength(1)
      expect(body.results[0]!.rows).toEqual([{ n: 1, label: 'é one' }, { n: 2, label: 'two\nlines' }, { n: 3, label: '😀' }])
      // Rows that arrive with the end frame in one read need no progress report: they are shown done.
      if (chunkSize >= text.length) return expect(progress).toEqual([])
      expect(progress[0]!.results[0]!.columns.map((column) => column.name)).toEqual(['n', 'label'])
    })
  }

  it('fails clearly when the stream ends without its end frame', async () => {
    await expect(readQueryStream(streamOf(text.split('\n').slice(0, 3).join('\n'), 16), () => {})).rejects.toThrow('The query stopped before it finished')
  })
})
