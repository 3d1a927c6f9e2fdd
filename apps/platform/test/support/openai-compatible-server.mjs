// A loopback stand-in for an OpenAI-compatible chat server (OpenAI, Ollama, vLLM...), the one test
// double the tests allow (docs/ARCHITECTURE.md "Tests") for the AI model: a real HTTP server speaking the real protocol, so the
// platform's provider code (AI SDK, fetch, SSE parsing, error mapping) runs as it does in use.
// Plain JavaScript ESM on node:http only: the server tests (vitest) and the Playwright server
// (plain node) both import it. Types: openai-compatible-server.d.mts.
import http from 'node:http'
import { randomUUID } from 'node:crypto'

/** Characters per streamed content delta: small, so clients really see several chunks. */
const CHUNK_CHARS = 4
/** Characters per streamed piece of a tool call's JSON arguments. */
const TOOL_ARGUMENT_CHUNK_CHARS = 16

/** OpenAI's error `type` and `code` for a status, so SDKs map them as they would the real thing. */
function errorKind(status) {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' }
  if (status === 403) return { type: 'invalid_request_error', code: 'unsupported_country_region_territory' }
  if (status === 404) return { type: 'invalid_request_error', code: 'model_not_found' }
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' }
  if (status >= 500) return { type: 'server_error', code: null }
  return { type: 'invalid_request_error', code: null }
}

function sendJson(res, status, value) {
  const text = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

function sendError(res, status, message) {
  sendJson(res, status, { error: { message, ...errorKind(status), param: null } })
}

/** Message content is a string, or (vision-style) an array of parts: only the text counts here. */
function textOf(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (part && typeof part.text === 'string' ? part.text : '')).join('')
  return ''
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Streams tool calls as OpenAI does: per call, a first delta with its id and function name, then the
 * JSON arguments in small pieces; finish_reason 'tool_calls'. Each piece waits a little, so that a
 * client can see the call while its arguments are still streaming.
 */
async function streamToolCalls(res, body, toolCalls, signal) {
  const id = `chatcmpl-${randomUUID()}`
  const created = Math.floor(Date.now() / 1000)
  const model = body.model ?? 'test-model'
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const event = (choices, extra = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...extra })}\n\n`)
  event([{ index: 0, delta: { role: 'assistant', content: null }, logprobs: null, finish_reason: null }])
  for (const [index, call] of toolCalls.entries()) {
    const callId = `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`
    event([{ index: 0, delta: { tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }, logprobs: null, finish_reason: null }])
    const args = JSON.stringify(call.arguments ?? {})
    for (let i = 0; i < args.length && !signal.aborted; i += TOOL_ARGUMENT_CHUNK_CHARS) {
      await new Promise((resolve) => setTimeout(resolve, call.chunkDelayMs ?? 0))
      event([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(i, i + TOOL_ARGUMENT_CHUNK_CHARS) } }] }, logprobs: null, finish_reason: null }])
    }
  }
  if (signal.aborted) return
  event([{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }])
  if (body.stream_options?.include_usage) event([], { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })
  res.end('data: [DONE]\n\n')
}

/**
 * Starts the server on 127.0.0.1 (an ephemeral port unless `port` is given). `reply` scripts the
 * answer to each chat request: a string is the assistant's text; `{ status, message }` answers
 * that HTTP status with OpenAI's error body; `{ toolCalls: [{ name, arguments, chunkDelayMs? }] }` streams
 * tool calls (streaming requests only). Without it the answer is 'select 1;'.
 * With `apiKey`, a request without `Authorization: Bearer <apiKey>` gets OpenAI's 401.
 */
export async function startOpenAiCompatibleServer(options = {}) {
  let reply = options.reply ?? (() => 'select 1;')
  const requests = []

  const server = http.createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0]
      if (req.method === 'GET' && path === '/v1/models') {
        return sendJson(res, 200, { object: 'list', data: [{ id: 'test-model', object: 'model', created: 0, owned_by: 'test' }] })
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return sendError(res, 404, `Unknown request URL: ${req.method} ${path}`)
      }
      let body
      try {
        body = JSON.parse(await readBody(req))
      } catch {
        return sendError(res, 400, 'We could not parse the JSON body of your request.')
      }
      const authorization = req.headers.authorization ?? null
      // Kept with the body but not enumerable: the recorded bodies stay equal to what was sent.
      Object.defineProperty(body, 'authorization', { value: authorization, enumerable: false })
      requests.push(body)
      if (options.apiKey !== undefined && authorization !== `Bearer ${options.apiKey}`) {
        return sendError(
          res,
          401,
          authorization
            ? 'Incorrect API key provided.'
            : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
        )
      }
      if (!Array.isArray(body.messages) || body.messages.length === 0) {
        return sendError(res, 400, "Invalid 'messages': expected a non-empty array.")
      }
      const messages = body.messages.map((message) => ({ role: String(message.role), content: textOf(message.content) }))
      // Aborts when the client goes away before the answer is complete: tests see cancellations.
      const disconnected = new AbortController()
      res.on('close', () => {
        if (!res.writableFinished) disconnected.abort()
      })
      const answer = await reply({ messages, body, authorization, signal: disconnected.signal })
      if (disconnected.signal.aborted) return
      if (answer && typeof answer === 'object' && Array.isArray(answer.toolCalls)) return streamToolCalls(res, body, answer.toolCalls, disconnected.signal)
      if (answer && typeof answer === 'object') return sendError(res, answer.status, answer.message)

      const text = String(answer ?? '')
      const id = `chatcmpl-${randomUUID()}`
      const created = Math.floor(Date.now() / 1000)
      const model = body.model ?? 'test-model'
      const promptTokens = messages.reduce((sum, message) => sum + Math.ceil(message.content.length / 4), 0)
      const completionTokens = Math.ceil(text.length / 4)
      const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }

      if (!body.stream) {
        return sendJson(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
          usage,
        })
      }

      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
      const event = (choices, extra = {}) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...extra })}\n\n`)
      event([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }])
      for (let i = 0; i < text.length && !disconnected.signal.aborted; i += CHUNK_CHARS) {
        await tick()
        event([{ index: 0, delta: { content: text.slice(i, i + CHUNK_CHARS) }, logprobs: null, finish_reason: null }])
      }
      if (disconnected.signal.aborted) return
      event([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }])
      // As OpenAI does: usage comes in one more chunk with no choices, when asked for.
      if (body.stream_options?.include_usage) event([], { usage })
      res.end('data: [DONE]\n\n')
    } catch (error) {
      if (!res.headersSent) sendError(res, 500, `Test server failure: ${error instanceof Error ? error.message : String(error)}`)
      else res.destroy()
    }
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : options.port

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setReply(fn) {
      reply = fn
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
