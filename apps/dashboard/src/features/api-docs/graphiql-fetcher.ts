/** What GraphiQL hands its fetcher: the operation, and the headers editor's object. */
interface FetcherOptions {
  headers?: Record<string, unknown>
}

type GraphqlResult = Record<string, unknown>

/**
 * GraphiQL's fetcher for the project's /graphql/v1: the chosen key as Supabase clients send it
 * (`apikey` and `Authorization: Bearer`), then the headers editor's own on top (a signed-in user's
 * JWT in `Authorization` runs the query as that user). Header names are case-insensitive, so an
 * `Authorization` typed in the editor replaces the key's instead of being joined to it.
 */
export function projectGraphqlFetcher(endpoint: string, apiKey: string) {
  return async (params: unknown, options?: FetcherOptions): Promise<GraphqlResult> => {
    const headers = new Headers({ apikey: apiKey, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' })
    for (const [name, value] of Object.entries(options?.headers ?? {})) {
      if (value === undefined || value === null) continue
      try {
        headers.set(name, String(value))
      } catch {
        return { errors: [{ message: `Header ${JSON.stringify(name)} is not a valid HTTP header.` }] }
      }
    }
    let response: Response
    try {
      response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(params) })
    } catch (error) {
      return { errors: [{ message: `Could not reach ${endpoint}: ${error instanceof Error ? error.message : String(error)}` }] }
    }
    const text = await response.text()
    try {
      const body: unknown = JSON.parse(text)
      if (body && typeof body === 'object' && !Array.isArray(body)) return body as GraphqlResult
    } catch {
      // Not JSON (a proxy's error page): shown below as an error GraphiQL can display.
    }
    return { errors: [{ message: `HTTP ${response.status}: ${text.slice(0, 500) || response.statusText}` }] }
  }
}
