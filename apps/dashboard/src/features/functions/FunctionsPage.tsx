import { Code2, KeyRound, Plus } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useFunctions } from '../../data/functions/useFunctions'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DeployFunctionCard } from './DeployFunctionCard'
import { FunctionsTable } from './FunctionsTable'
import { FUNCTION_TEXTS } from './texts'
import './functions.css'

/** /project/{ref}/functions: the project's edge functions and the deploy flow. */
export function FunctionsPage() {
  useProjectPageTitle('Edge Functions')
  const { ref, project } = useCurrentProject()
  const functions = useFunctions(ref)
  const settings = useProjectSettings(ref)
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const [deploying, setDeploying] = useState(false)
  const list = functions.data ?? []
  const slugs = useMemo(() => new Set((functions.data ?? []).map((fn) => fn.slug)), [functions.data])

  const openButton = (
    <Button
      variant="primary"
      icon={<Plus size={14} aria-hidden="true" />}
      onClick={() => setDeploying(true)}
      disabled={!canWrite}
      disabledReason={FUNCTION_TEXTS.writePermission}
    >
      Deploy a new function
    </Button>
  )

  return (
    <div className="page">
      <PageHeader
        title="Edge Functions"
        description="Server-side TypeScript functions deployed next to this project, each with a slug and a version."
        actions={
          <>
            <Link className="btn btn-secondary btn-md" to={`/project/${ref}/functions/secrets`}>
              <KeyRound size={14} aria-hidden="true" /> Secrets
            </Link>
            {deploying ? null : openButton}
          </>
        }
      />
      <div className="stack">
        <Alert tone="info" title="Run in Deno, one process per function" live={false}>
          {FUNCTION_TEXTS.running}
        </Alert>
        {deploying ? (
          <DeployFunctionCard
            projectRef={ref}
            existingSlugs={slugs}
            apiUrl={settings.data ? projectApiUrl(settings.data) : undefined}
            canWrite={canWrite}
            onClose={() => setDeploying(false)}
          />
        ) : null}
        <QueryState
          query={functions}
          loadingLabel="Loading edge functions…"
          errorTitle="Could not load the edge functions"
          isEmpty={list.length === 0}
          empty={
            // The deploy card above already stands for the first function.
            deploying ? null : (
              <Card>
                <EmptyState
                  icon={<Code2 size={22} />}
                  title="No edge functions yet"
                  description="Deploy a function from here or with the Management API (POST /v1/projects/{ref}/functions/deploy). Each deploy of the same slug adds a version."
                  action={openButton}
                />
              </Card>
            )
          }
        >
          <FunctionsTable functions={list} projectRef={ref} />
        </QueryState>
      </div>
    </div>
  )
}
