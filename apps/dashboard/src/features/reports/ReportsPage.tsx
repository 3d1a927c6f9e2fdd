import { BarChart3, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { reportLayout, useCreateReport, useReports } from './reportsApi'
import './reports.css'

/** /project/{ref}/reports: the project's reports; each pins saved snippets as widgets. */
export function ReportsPage() {
  useProjectPageTitle('Reports')
  const { ref } = useCurrentProject()
  const navigate = useNavigate()
  const toast = useToast()
  const reports = useReports(ref)
  const create = useCreateReport(ref)
  const [name, setName] = useState('')

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    if (!trimmed) return
    create.mutate(trimmed, {
      onSuccess: (item) => void navigate(`/project/${ref}/reports/${item.id}`),
      onError: (error) => toast.error(`Failed to create report: ${errorMessage(error)}`),
    })
  }

  const list = reports.data ?? []
  return (
    <div className="page">
      <PageHeader title="Reports" description="Pin saved SQL snippets as widgets: each runs its query and shows a table or a chart (bar, line or area)." />
      <div className="stack">
        <Card title="New report">
          <form className="report-create" onSubmit={submit}>
            <TextField label="Report name" value={name} onChange={(e) => setName(e.target.value)} maxLength={256} />
            <Button type="submit" variant="primary" icon={<Plus size={14} aria-hidden="true" />} loading={create.isPending} disabled={!name.trim()}>
              Create report
            </Button>
          </form>
        </Card>
        <QueryState
          query={reports}
          errorLead="Failed to load reports: "
          retry={false}
          isEmpty={list.length === 0}
          empty={<EmptyState icon={<BarChart3 size={20} aria-hidden="true" />} title="No reports yet" description="Create a report, then pin saved snippets to it." />}
        >
          <Card title="Reports" flush>
            <ul className="report-list" aria-label="Reports">
              {list.map((report) => (
                <li key={report.id} className="report-list-item">
                  <Link to={`/project/${ref}/reports/${report.id}`}>{report.name}</Link>
                  <span className="report-list-meta">{reportLayout(report).length} widgets</span>
                </li>
              ))}
            </ul>
          </Card>
        </QueryState>
      </div>
    </div>
  )
}
