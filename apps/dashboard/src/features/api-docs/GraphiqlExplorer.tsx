import 'graphiql/setup-workers/vite'
import 'graphiql/style.css'
import { GraphiQL } from 'graphiql'
import { useMemo } from 'react'

export interface GraphiqlExplorerProps {
  /** `${projectUrl}/graphql/v1` */
  endpoint: string
  apiKey: string
}

/**
 * GraphiQL (the `graphiql` package, from our own bundle) against the project's /graphql/v1, sending the
 * chosen key as Supabase clients do: `apikey` and `Authorization: Bearer`. Loaded only on this page.
 */
export default function GraphiqlExplorer({ endpoint, apiKey }: GraphiqlExplorerProps) {
  const fetcher = useMemo(
    () => async (params: unknown) => {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { apikey: apiKey, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(params),
      })
      return response.json() as Promise<Record<string, unknown>>
    },
    [endpoint, apiKey],
  )
  return <GraphiQL fetcher={fetcher} defaultEditorToolsVisibility={false} />
}
