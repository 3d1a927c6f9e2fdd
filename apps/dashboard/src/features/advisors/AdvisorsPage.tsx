import type { LintCategory } from '@stratum/contracts'
import { ShieldCheck, Zap } from 'lucide-react'
import { Navigate, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { TabNav } from '../../components/ui/TabNav'
import { useProjectLints } from '../../data/advisors/lints'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { LintList } from './LintList'
import './advisors.css'

const TABS: Record<string, { category: LintCategory; label: string; empty: string }> = {
  security: { category: 'SECURITY', label: 'Security', empty: 'No security issues found in this project’s database.' },
  performance: { category: 'PERFORMANCE', label: 'Performance', empty: 'No performance issues found in this project’s database.' },
}

/** /project/{ref}/advisors/{security|performance}: the lints computed from the project's database, with their fixes. */
export function AdvisorsPage() {
  const { kind = 'security' } = useParams()
  const tab = TABS[kind]
  useProjectPageTitle(tab ? `${tab.label} Advisor` : 'Advisors')
  const { ref, project } = useCurrentProject()
  const running = project?.status === 'ACTIVE_HEALTHY'
  const lints = useProjectLints(ref, running)
  if (!tab) return <Navigate to={`/project/${ref}/advisors/security`} replace />
  const shown = (lints.data ?? []).filter((lint) => lint.categories.includes(tab.category))

  return (
    <div className="page">
      <PageHeader
        title="Advisors"
        description="Checks of your database's schema for security holes and slow spots, run against the project's database each time this page loads."
      >
        <TabNav
          label="Advisors"
          tabs={Object.entries(TABS).map(([to, { label }]) => ({ label, to: `/project/${ref}/advisors/${to}` }))}
        />
      </PageHeader>
      {project && !running ? (
        <Alert tone="info" live={false}>
          The advisors run when the project is running.
        </Alert>
      ) : (
        <Card flush title={`${tab.label} issues`} description={shown.length ? `${shown.length} found` : undefined}>
          <QueryState
            query={lints}
            loadingLabel="Running the advisors…"
            errorTitle="Could not run the advisors"
            isEmpty={shown.length === 0}
            empty={
              <EmptyState
                icon={tab.category === 'SECURITY' ? <ShieldCheck size={24} /> : <Zap size={24} />}
                title="No issues found"
                description={tab.empty}
              />
            }
          >
            <LintList lints={shown} />
          </QueryState>
        </Card>
      )}
    </div>
  )
}
