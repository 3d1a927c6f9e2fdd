import type { PlatformContext } from '../../platform-context.js'
import { answerJson, type FastRequest } from '../../gateway/fast-request.js'
import { bodyOrGone, proxyRaw } from '../../gateway/raw-proxy.js'
import type { FunctionProcess } from './function-process.js'
import { decodeSegment, EXIT_WAIT_MS, FUNCTION_TARGET, FunctionTimeout, functionRequestHeaders, jwtCaller, SLUG } from './gateway-route.js'

/**
 * A function invocation on the gateway's fast path (gateway/fast-path.ts): the same checks as serveFunction
 * (the function exists, verify_jwt, the project running), then the client's request goes straight onto the
 * function's socket and its answer streams back as the function writes it. A request that would be refused goes
 * to serveFunction (false), which answers it in the relay's shape.
 */
export async function serveFunctionFast(ctx: PlatformContext, request: FastRequest): Promise<boolean> {
  const { req, res } = request
  const project = await ctx.directory.getCurrent(request.ref)
  if (!project || project.status !== 'ACTIVE_HEALTHY') return false
  const match = FUNCTION_TARGET.exec(request.below.slice('/functions/v1'.length))
  if (!match) return false
  const slug = decodeSegment(match[1]!)
  if (slug === null || !SLUG.test(slug)) return false
  const row = await ctx.functions.find(project.ref, slug)
  if (!row) return false
  let role: string | null = null
  if (row.verify_jwt) {
    const checked = await jwtCaller(project, req.headers)
    if ('refusal' in checked) return false
    role = checked.role
  }
  request.record({ service: 'functions', role, apikey: null })

  let process: FunctionProcess
  try {
    process = await ctx.functions.acquire(project, row)
  } catch (error) {
    request.logger.warn({ ref: project.ref, function: slug, err: error }, 'edge function failed to start')
    answerJson(request, 503, { code: 'BOOT_ERROR', error: 'The function failed to start', message: (error as Error).message })
    return true
  }

  const body = await bodyOrGone(req, res)
  if (body === undefined) return true

  // Within the wall-clock limit: a hung request kills the process (504); a process that dies answers 502 with its
  // error; either way the next request starts a fresh one (as gateway-route.ts's proxyToFunction).
  const limit = ctx.functions.timeoutMs
  const end = process.begin()
  let timer: NodeJS.Timeout | undefined
  let finished = false
  const finish = () => {
    finished = true
    clearTimeout(timer)
    end()
  }
  const exchange = proxyRaw(
    process.http,
    req,
    res,
    {
      origin: 'http://localhost',
      method: req.method as 'GET',
      path: `/${match[1]}${match[2]}${match[3] ?? ''}`,
      headers: functionRequestHeaders(req.headers, request.protocol, request.ip),
      body,
      // The wall-clock limit is the only one: a function may take its time to answer or stream.
      headersTimeout: 0,
      bodyTimeout: 0,
    },
    // Streamed as the function writes it (server-sent events, large downloads); its own CORS headers win.
    { override: {}, corsUnlessOwn: request.cors, bufferLimit: 0 },
    {
      failed: (error) => {
        if (error instanceof FunctionTimeout) {
          process.kill()
          void ctx.functions.discard(process)
          answerJson(request, 504, { error: 'Function timed out', message: `The function did not answer within ${limit} ms (wall-clock limit); its process was stopped` })
          return
        }
        // Did the process die? Give it a moment to be seen exiting, so the answer can say why.
        void Promise.race([process.exited, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())]).then(() => {
          const message = process.hasExited ? process.exitReason() : `The function could not be reached: ${error.message}`
          void ctx.functions.discard(process)
          request.logger.warn({ function: process.key, err: error }, 'edge function request failed')
          answerJson(request, 502, { error: 'The function crashed', message })
        })
      },
      cutShort: (error) => {
        if (error instanceof FunctionTimeout) {
          process.kill()
          void ctx.functions.discard(process)
        }
        request.logger.warn({ function: process.key, err: error }, 'edge function answer cut short')
      },
      done: finish,
    },
  )
  if (!finished) timer = setTimeout(() => exchange.abort(new FunctionTimeout()), limit)
  return true
}
