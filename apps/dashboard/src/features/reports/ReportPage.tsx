import { Pin, X } from 'lucide-react'
import { useQueryClient } from '@tanstack/react-query'
import type { ContentItem } from '@stratum/contracts'
import { useState, type DragEvent } from 'react'
import { Link, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button, IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { Select } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateSnippet } from '../../data/content/useCreateSnippet'
import { useSnippets } from '../../data/content/useSnippets'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { QUERY_DRAG_TYPE, readDraggedQuery } from '../../lib/dragged-query'
import { QueryResultWidget } from '../query-widget'
import { reportLayout, reportQuery, useReport, useSaveReportLayout, widgetIsAt, withoutWidget, withWidgetChart, type ReportWidget } from './reportsApi'
import './reports.css'

/** /project/{ref}/reports/{id}: the pinned snippets as query result widgets, each keeping its view and chart settings. */
export function ReportPage() {
  const { ref } = useCurrentProject()
  const { id } = useParams()
  const toast = useToast()
  const report = useReport(ref, id)
  const snippets = useSnippets(ref)
  const save = useSaveReportLayout(ref, id)
  const queryClient = useQueryClient()
  const [picked, setPicked] = useState('')
  const { project } = useCurrentProject()
  // The spec's rule for a dragged chart: saving it makes a snippet of the member's own.
  const canSaveSnippets = useCan(project?.organization_slug, 'user_content.create')
  const createSnippet = useCreateSnippet()
  const [dropping, setDropping] = useState(false)
  useProjectPageTitle(report.data?.name ?? 'Reports')

  if (report.isPending) return <LoadingState />
  if (report.isError || !report.data)
    return (
      <div className="page">
        <PageHeader title="Report not found" />
        <Alert tone="danger">{errorMessage(report.error)}</Alert>
        <Link to={`/project/${ref}/reports`}>Back to reports</Link>
      </div>
    )

  const current = report.data
  const layout = reportLayout(current)
  const byId = new Map((snippets.data ?? []).map((snippet) => [snippet.id, snippet]))
  /**
   * A change of the layout as last changed: the cache, where each save puts its layout at once, not this render's
   * (two changes before the page re-rendered, or a drop's pin after its snippet was created, dropped the other change).
   */
  const setLayout = (change: (latest: ReportWidget[]) => ReportWidget[]) => {
    const latest = queryClient.getQueryData<ContentItem>(reportQuery(ref, id).queryKey) ?? current
    save.mutate({ report: latest, layout: change(reportLayout(latest)) }, { onError: (error) => toast.error(`Failed to save report: ${errorMessage(error)}`) })
  }

  /** A query block dragged from the assistant: saved as the member's snippet, then pinned. */
  const onDrop = (event: DragEvent) => {
    setDropping(false)
    const dragged = readDraggedQuery(event.dataTransfer)
    if (!dragged || !canSaveSnippets) return
    event.preventDefault()
    createSnippet.mutate(
      { ref, id: crypto.randomUUID(), name: dragged.label, sql: dragged.sql },
      {
        onSuccess: (item) => setLayout((latest) => [...latest, { snippet_id: item.id }]),
        onError: (error) => toast.error(`Failed to create new query: ${errorMessage(error)}`),
      },
    )
  }
  const onDragOver = (event: DragEvent) => {
    if (!canSaveSnippets || !event.dataTransfer.types.includes(QUERY_DRAG_TYPE)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setDropping(true)
  }

  return (
    <div className={`page${dropping ? ' report-drop-target' : ''}`} onDragOver={onDragOver} onDragLeave={() => setDropping(false)} onDrop={onDrop} data-testid="report-page">
      <PageHeader title={current.name} description="Saved snippets pinned to this report. Drag a query block from the AI assistant here to pin it." actions={<Link to={`/project/${ref}/reports`}>All reports</Link>} />
      <div className="stack">
        <Card title="Pin a snippet">
          <form
            className="report-create"
            onSubmit={(event) => {
              event.preventDefault()
              if (!picked) return
              setLayout((latest) => [...latest, { snippet_id: picked }])
              setPicked('')
            }}
          >
            <Select aria-label="Snippet to pin" value={picked} onChange={(e) => setPicked(e.target.value)}>
              <option value="">{snippets.isPending ? 'Loading snippets…' : 'Choose a saved snippet'}</option>
              {(snippets.data ?? []).map((snippet) => (
                <option key={snippet.id} value={snippet.id}>
                  {snippet.name}
                </option>
              ))}
            </Select>
            <Button type="submit" variant="primary" icon={<Pin size={14} aria-hidden="true" />} disabled={!picked} loading={save.isPending}>
              Pin snippet
            </Button>
          </form>
        </Card>
        {layout.length === 0 ? <p className="report-empty">No snippets pinned yet.</p> : null}
        <div className="report-widgets">
          {layout.map((widget, index) => {
            const snippet = byId.get(widget.snippet_id)
            const unpin = (
              <IconButton
                label="Unpin"
                icon={<X size={14} aria-hidden="true" />}
                onClick={() => setLayout((latest) => withoutWidget(latest, index, widget.snippet_id))}
              />
            )
            if (!snippet)
              return (
                <div key={`${widget.snippet_id}-${index}`} className="report-missing">
                  {snippets.isPending ? 'Loading…' : 'This snippet is no longer available.'} {unpin}
                </div>
              )
            return (
              <QueryResultWidget
                key={`${widget.snippet_id}-${index}`}
                projectRef={ref}
                snippet={snippet}
                chart={widget.chart}
                onChartChange={(chart) => setLayout((latest) => (widgetIsAt(latest, index, widget.snippet_id) ? withWidgetChart(latest, index, chart) : latest))}
                autoRun
                actions={unpin}
              />
            )
          })}
        </div>
      </div>
    </div>
  )
}
