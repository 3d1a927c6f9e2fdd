import 'graphiql/style.css'
import { GraphiQL } from 'graphiql'
import { useEffect, useLayoutEffect, useMemo } from 'react'
import { useTheme } from '../../lib/theme'
import { projectGraphqlFetcher } from './graphiql-fetcher'
import { projectGraphiqlStorage } from './graphiql-storage'
import { installGraphiqlWorkers } from './graphiql-workers'

export interface GraphiqlExplorerProps {
  projectRef: string
  /** `${projectUrl}/graphql/v1` */
  endpoint: string
  /** The key of the role chosen in "Run as": changing it re-reads the schema as that role. */
  apiKey: string
}

/** The first tab of a project that never used GraphiQL: what the schema looks like, and how to look. */
const DEFAULT_QUERY = `# pg_graphql's schema: each table is a
# collection, e.g.
#
#   todosCollection(first: 10) {
#     edges { node { id } }
#   }
#
# Ctrl+Space completes, Ctrl+Enter runs.

query {
  __typename
}
`

/**
 * GraphiQL (the `graphiql` package, from our own bundle) against the project's /graphql/v1: the query
 * editor with variables and headers, the results, the docs explorer and the history, in the dashboard's
 * theme. Loaded only on this page.
 */
export default function GraphiqlExplorer({ projectRef, endpoint, apiKey }: GraphiqlExplorerProps) {
  const { resolved } = useTheme()
  // Before GraphiQL's own effects load its Monaco: its workers are in force while this page is up.
  useLayoutEffect(() => installGraphiqlWorkers(), [])
  // GraphiQL marks <body> with its theme; the class goes with the page.
  useEffect(() => () => document.body.classList.remove('graphiql-light', 'graphiql-dark'), [])
  const fetcher = useMemo(() => projectGraphqlFetcher(endpoint, apiKey), [endpoint, apiKey])
  const storage = useMemo(() => projectGraphiqlStorage(projectRef), [projectRef])
  return (
    <GraphiQL
      fetcher={fetcher}
      storage={storage}
      defaultQuery={DEFAULT_QUERY}
      forcedTheme={resolved}
      defaultEditorToolsVisibility={false}
      className="graphiql-themed"
    >
      {/* The page's header names it already. */}
      <GraphiQL.Logo>{null}</GraphiQL.Logo>
    </GraphiQL>
  )
}
