/**
 * The one way the dashboard talks to the platform server: same-origin fetch with the
 * session cookie, JSON in and out, and errors that carry the server's own {message}
 * so toasts and inline errors can show it as is.
 */
export class ApiError extends Error {
  readonly status: number

  constructor(message: string, status: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What a request that never reached the server (offline, the server down) says. */
export const SERVER_UNREACHABLE = 'Cannot reach the Stratum server. Check your connection and try again.'

/** The server's own `{ message }` of a refused answer, or its status when it has none. */
export function refusalMessage(payload: unknown, status: number): string {
  return payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string'
    ? payload.message
    : `Request failed with status ${status}`
}

/**
 * A fetch to the platform server, the one place the dashboard makes one: the session cookie goes
 * along, a request that never got an answer is an ApiError of status 0, and an abort stays an
 * AbortError (a query that was cancelled is not an error to show). The answer is returned as is,
 * for callers that read it their own way (streams, SQL errors with positions); api() reads JSON.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(path, { ...init, credentials: 'same-origin' })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(SERVER_UNREACHABLE, 0)
  }
}

/** The ApiError of a refused answer, with the message the server gave (JSON or not). */
export async function refusalOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '')
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch {
    // not JSON: the status line says it
  }
  return new ApiError(refusalMessage(payload, response.status), response.status)
}

interface RequestOptions {
  method?: Method
  /** Sent as JSON. */
  body?: unknown
  /** Sent as multipart/form-data instead of a JSON body (function deploys). */
  form?: FormData
  /** Extra headers some routes ask for (the content route's `Version: 2`). */
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** JSON in and out; a refusal throws an ApiError with the server's message. */
export async function api<T>(path: string, { method = 'GET', body, form, headers, signal }: RequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, {
    method,
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    signal,
  })
  if (!response.ok) throw await refusalOf(response)
  if (response.status === 204) return undefined as T
  return (await response.json().catch(() => undefined)) as T
}

/** A text answer (the branch diff's SQL); a refusal throws an ApiError with the server's message. */
export async function apiText(path: string, { signal }: { signal?: AbortSignal } = {}): Promise<string> {
  const response = await apiFetch(path, { signal })
  if (!response.ok) throw await refusalOf(response)
  return response.text()
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status)
}

/** A message fit for a person, whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return 'Something went wrong'
}
