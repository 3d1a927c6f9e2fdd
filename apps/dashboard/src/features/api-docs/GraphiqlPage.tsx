import { useId, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { CopyButton } from '../../components/ui/CopyButton'
import { Select } from '../../components/ui/Field'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { lazyComponent } from '../../lib/lazyComponent'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import './graphiql-page.css'

// GraphiQL brings its own editor and the GraphQL language service: a chunk of its own, for this page only.
const GraphiqlExplorer = lazyComponent(() => import('./GraphiqlExplorer').then((module) => module.default), <LoadingState label="Loading GraphiQL…" />)

type KeyRole = 'anon' | 'service_role'

const ROLES: Record<KeyRole, { label: string; badge: string; tone: 'neutral' | 'warning' }> = {
  anon: { label: 'anon', badge: 'Row level security applies', tone: 'neutral' },
  service_role: { label: 'service_role', badge: 'Bypasses row level security', tone: 'warning' },
}

/**
 * /project/{ref}/api/graphiql: GraphiQL filling the main panel, on the project's GraphQL API with the
 * anon or (for who may read it) the service_role key. Switching the key keeps the tabs and re-reads the
 * schema, which pg_graphql builds from what that role may see.
 */
export function GraphiqlPage() {
  useProjectPageTitle('GraphiQL')
  const { ref } = useCurrentProject()
  const settings = useProjectSettings(ref)
  const [role, setRole] = useState<KeyRole>('anon')
  const roleId = useId()
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
  const keyOf = (tag: KeyRole) => keys.find((item) => item.tags === tag)?.api_key
  const roles = (Object.keys(ROLES) as KeyRole[]).filter((tag) => keyOf(tag))
  const current = keyOf(role) ? role : 'anon'
  const endpoint = `${projectApiUrl(settings.data)}/graphql/v1`
  return (
    <div className="graphiql-page">
      <header className="graphiql-header">
        <div className="graphiql-heading">
          <h1 className="graphiql-title">GraphiQL</h1>
          <code className="graphiql-endpoint" title={endpoint}>
            {endpoint}
          </code>
          <CopyButton value={endpoint} what="GraphQL endpoint" variant="ghost" />
        </div>
        <div className="graphiql-role">
          <label htmlFor={roleId} className="graphiql-role-label">
            Run as
          </label>
          <Select id={roleId} value={current} onChange={(event) => setRole(event.target.value as KeyRole)}>
            {roles.map((tag) => (
              <option key={tag} value={tag}>
                {ROLES[tag].label}
              </option>
            ))}
          </Select>
          <Badge tone={ROLES[current].tone}>{ROLES[current].badge}</Badge>
        </div>
      </header>
      <div className="graphiql-host">
        <GraphiqlExplorer projectRef={ref} endpoint={endpoint} apiKey={keyOf(current) ?? ''} />
      </div>
    </div>
  )
}
