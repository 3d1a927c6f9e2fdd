import { AI_FAILED_COMPLETION, type AiCompletionBody } from '@stratum/contracts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AiCompletionError, streamSqlCompletion } from '../src/data/ai/streamSqlCompletion'

const BODY: AiCompletionBody = {
  projectRef: 'abcdefghijklmnopqrst',
  completionMetadata: { textBeforeCursor: 'select 1;\n', textAfterCursor: '', language: 'pgsql', prompt: 'count the todos', selection: 'select 2;' },
}

const encoder = new TextEncoder()

/** A streamed text/plain answer: each chunk is enqueued on its own, `fail` errors the stream after them. */
function streamed(chunks: (string | Uint8Array)[], fail?: Error): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      if (fail) controller.error(fail)
      else controller.close()
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } })
}

function mockFetch(answer: (init: RequestInit) => Response | Promise<Response>) {
  const fetchMock = vi.fn((_path: string, init: RequestInit) => Promise.resolve(answer(init)))
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('streamSqlCompletion', () => {
  it('posts the completionMetadata with the session cookie and reports the text as it arrives', async () => {
    const fetchMock = mockFetch(() => streamed(['select ', 'count(*) ', 'from public.todos;']))
    const seen: string[] = []
    const text = await streamSqlCompletion(BODY, { onText: (partial) => seen.push(partial) })

    expect(text).toBe('select count(*) from public.todos;')
    expect(seen).toEqual(['select ', 'select count(*) ', 'select count(*) from public.todos;'])
    const [path, init] = fetchMock.mock.calls[0]!
    expect(path).toBe('/api/ai/sql/complete-v2')
    expect(init.method).toBe('POST')
    expect(init.credentials).toBe('same-origin')
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json')
    expect(JSON.parse(init.body as string)).toEqual(BODY)
  })

  it('decodes characters split across chunks', async () => {
    const bytes = encoder.encode("select 'ünïcødé 😀';")
    mockFetch(() => streamed([bytes.slice(0, 9), bytes.slice(9, 19), bytes.slice(19)]))
    const seen: string[] = []
    await expect(streamSqlCompletion(BODY, { onText: (partial) => seen.push(partial) })).resolves.toBe("select 'ünïcødé 😀';")
    for (const partial of seen) expect(partial).not.toContain('\ufffd')
  })

  it("says 'Failed to generate: {message}' when the server answers an error with a message", async () => {
    mockFetch(() => Response.json({ message: 'The model is overloaded' }, { status: 502 }))
    const failure = streamSqlCompletion(BODY)
    await expect(failure).rejects.toBeInstanceOf(AiCompletionError)
    await expect(failure).rejects.toThrow('Failed to generate: The model is overloaded')
  })

  it("says 'Failed to generate completion' when the error has no message", async () => {
    mockFetch(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }))
    await expect(streamSqlCompletion(BODY)).rejects.toThrow(new AiCompletionError(AI_FAILED_COMPLETION))
    mockFetch(() => Response.json({ message: '' }, { status: 500 }))
    await expect(streamSqlCompletion(BODY)).rejects.toThrow(AI_FAILED_COMPLETION)
    mockFetch(() => Response.json({ error: 'nope' }, { status: 400 }))
    await expect(streamSqlCompletion(BODY)).rejects.toThrow(AI_FAILED_COMPLETION)
  })

  it('passes the 400 of a platform without a provider through as is', async () => {
    mockFetch(() => Response.json({ message: "The AI provider's API key is not set." }, { status: 400 }))
    await expect(streamSqlCompletion(BODY)).rejects.toThrow("Failed to generate: The AI provider's API key is not set.")
  })

  it("says 'Failed to generate: {error}' on a network error", async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))))
    await expect(streamSqlCompletion(BODY)).rejects.toThrow(new AiCompletionError('Failed to generate: Failed to fetch'))
  })

  it('says so when the stream breaks off mid-way, after reporting what had arrived', async () => {
    mockFetch(() => streamed(['select ', 'count('], new TypeError('network error')))
    const seen: string[] = []
    await expect(streamSqlCompletion(BODY, { onText: (partial) => seen.push(partial) })).rejects.toThrow('Failed to generate: network error')
    expect(seen.at(-1)).toBe('select count(')
  })

  it('stops when aborted: an AbortError, not a failure to show', async () => {
    const controller = new AbortController()
    mockFetch((init) => {
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          stream.enqueue(encoder.encode('select '))
          init.signal?.addEventListener('abort', () => stream.error(new DOMException('This operation was aborted', 'AbortError')))
        },
      })
      return new Response(body, { status: 200 })
    })
    const seen: string[] = []
    const pending = streamSqlCompletion(BODY, {
      signal: controller.signal,
      onText: (partial) => {
        seen.push(partial)
        controller.abort()
      },
    })
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    await expect(pending).rejects.not.toBeInstanceOf(AiCompletionError)
    expect(seen).toEqual(['select '])
  })

  it('lets an abort before the answer through as an AbortError', async () => {
    const controller = new AbortController()
    controller.abort()
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new DOMException('This operation was aborted', 'AbortError'))))
    await expect(streamSqlCompletion(BODY, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' })
  })
})
