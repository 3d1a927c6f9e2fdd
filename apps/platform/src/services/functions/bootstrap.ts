/**
 * The module each function's Deno process runs first (written next to its socket, readable by the
 * function's OS user only). User code calls `Deno.serve(handler)` as on Supabase; here that call is
 * redirected to the Unix socket the platform chose, so the function listens on nothing a client or
 * another process could reach over TCP. Then the user's entrypoint is imported.
 *
 * Deno.args: [socket path, entrypoint file URL]. Plain JavaScript: nothing to type-check at start.
 */
export const BOOTSTRAP_SOURCE = String.raw`
const [socketPath, entrypoint] = Deno.args
const listen = Deno.serve.bind(Deno)
let served = false

// An allocation the memory limit refused (the OS limit: RangeError "Array buffer allocation failed"):
// the process stops, and the platform answers the request with a 5xx naming the limit.
const outOfMemory = (error) => error instanceof RangeError && /allocation failed|out of memory/i.test(error.message)

// What a thrown error becomes: the function's caller sees it (as JSON) instead of an empty 500.
function failure(error) {
  console.error(error)
  if (outOfMemory(error)) {
    console.error('Out of memory: ' + error.message)
    Deno.exit(1)
  }
  const message = error instanceof Error ? error.message : String(error)
  return Response.json({ error: 'The function threw an error', message }, { status: 500 })
}

// The platform forwards the client's URL in these headers: req.url reads as the client sent it
// ('http://host/<slug>/path?query', as on Supabase), not as the socket's 'http+unix://' address.
function clientRequest(request) {
  const proto = request.headers.get('x-forwarded-proto') || 'http'
  const host = request.headers.get('x-forwarded-host') || 'localhost'
  const url = new URL(request.url)
  return new Request(proto + '://' + host + url.pathname + url.search, request)
}

// Only the names the platform passes are readable (--allow-env=...). A name it did not pass reads as
// unset, as on Supabase, instead of throwing: code that probes optional settings keeps working.
const getEnv = Deno.env.get.bind(Deno.env)
const hasEnv = Deno.env.has.bind(Deno.env)
const notCapable = (error) => error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
Deno.env.get = (name) => {
  try {
    return getEnv(name)
  } catch (error) {
    if (notCapable(error)) return undefined
    throw error
  }
}
Deno.env.has = (name) => {
  try {
    return hasEnv(name)
  } catch (error) {
    if (notCapable(error)) return false
    throw error
  }
}

Deno.serve = function serve(first, second) {
  if (served) throw new Error('Deno.serve can be called only once in an edge function')
  served = true
  const options = typeof first === 'function' ? (second ?? {}) : (first ?? {})
  const handler = typeof first === 'function' ? first : typeof second === 'function' ? second : options.handler
  if (typeof handler !== 'function') throw new TypeError('Deno.serve needs a handler function')
  return listen(
    { path: socketPath, onListen() {}, onError: failure, signal: options.signal },
    async (request, info) => {
      try {
        return await handler(clientRequest(request), info)
      } catch (error) {
        return failure(error)
      }
    },
  )
}

await import(entrypoint)
`
