import { Network } from 'lucide-react'
import { EmptyState } from '../../components/ui/EmptyState'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'

/** /project/{ref}/api/graphiql: where the GraphQL explorer will live. */
export function GraphiqlPage() {
  useProjectPageTitle('GraphiQL')
  return (
    <div className="page page-narrow">
      <EmptyState
        icon={<Network size={20} aria-hidden="true" />}
        title="GraphQL is not served yet"
        description="This Stratum does not serve a GraphQL endpoint for the project yet, so there is no explorer to open. The REST API documentation is in the API Docs, from the top bar."
      />
    </div>
  )
}
