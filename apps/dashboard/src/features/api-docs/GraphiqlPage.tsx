import { lazy, Suspense, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import './graphiql-page.css'

// GraphiQL brings its own editor and the GraphQL language service: a chunk of its own, for this page only.
const GraphiqlExplorer = lazy(() => import('./GraphiqlExplorer'))

type KeyRole = 'anon' | 'service_role'

/** /project/{ref}/api/graphiql: GraphiQL on the project's GraphQL API, with the anon or (for who may read it) the service_role key. */
export function GraphiqlPage() {
  useProjectPageTitle('GraphiQL')
  const { ref } = useCurrentProject()
  const settings = useProjectSettings(ref)
  const [role, setRole] = useState<KeyRole>('anon')
  if (settings.isError) {
    return (
      <div className="page page-narrow">
        <Alert tone="danger" title="Failed to retrieve API keys">
          {errorMessage(settings.error)}
        </Alert>
      </div>
    )
  }
  if (!settings.data) return <LoadingState label="Loading GraphiQL…" />
  const keys = settings.data.service_api_keys
  const key = keys.find((item) => item.tags === role)?.api_key ?? keys.find((item) => item.tags === 'anon')?.api_key ?? ''
  return (
    <div className="graphiql-page">
      <div className="graphiql-toolbar">
        <h1 className="graphiql-title">GraphiQL</h1>
        <label className="graphiql-role">
          Run as
          <select className="input" value={role} onChange={(event) => setRole(event.target.value as KeyRole)} aria-label="API key">
            <option value="anon">anon key (row level security applies)</option>
            {keys.some((item) => item.tags === 'service_role') ? <option value="service_role">service_role key (bypasses row level security)</option> : null}
          </select>
        </label>
      </div>
      <div className="graphiql-host">
        <Suspense fallback={<LoadingState label="Loading GraphiQL…" />}>
          <GraphiqlExplorer key={role} endpoint={`${projectApiUrl(settings.data)}/graphql/v1`} apiKey={key} />
        </Suspense>
      </div>
    </div>
  )
}
