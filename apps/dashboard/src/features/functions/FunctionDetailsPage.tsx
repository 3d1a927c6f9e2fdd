import type { FunctionResponse } from '@stratum/contracts'
import { ArrowLeft, Trash2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { errorMessage, isApiError } from '../../data/api'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useDeleteFunction } from '../../data/functions/useDeleteFunction'
import { useFunction } from '../../data/functions/useFunction'
import { useFunctionFiles } from '../../data/functions/useFunctionFiles'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { formatDateTime, humanize } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DeleteFunctionDialog } from './DeleteFunctionDialog'
import { FunctionFiles } from './FunctionFiles'
import { downloadCommand, entrypointFile, FUNCTION_TEXTS, functionUrl } from './texts'
import './functions.css'

const iso = (ms: number) => new Date(ms).toISOString()

function DetailsList({ fn }: { fn: FunctionResponse }) {
  const rows: [string, ReactNode][] = [
    ['Name', fn.name],
    ['Slug', <span className="mono">{fn.slug}</span>],
    ['Version', fn.version],
    ['Status', humanize(fn.status)],
    ['Entrypoint', <span className="mono">{fn.entrypoint_path}</span>],
    ['Verify JWT', fn.verify_jwt ? 'Required' : 'Not required'],
    ['Import map', fn.import_map ? <span className="mono">{fn.import_map_path ?? 'Yes'}</span> : 'None'],
    ['Created', <time dateTime={iso(fn.created_at)}>{formatDateTime(iso(fn.created_at))}</time>],
    ['Updated', <time dateTime={iso(fn.updated_at)}>{formatDateTime(iso(fn.updated_at))}</time>],
  ]
  return (
    <dl className="fn-details">
      {rows.map(([term, value]) => (
        <div key={term} className="fn-details-row">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** /project/{ref}/functions/{slug}/details: one function, its files, download command and delete. */
export function FunctionDetailsPage() {
  const { slug = '' } = useParams()
  useProjectPageTitle(slug ? `${slug} | Edge Functions` : 'Edge Functions')
  const { ref, project } = useCurrentProject()
  const navigate = useNavigate()
  const toast = useToast()
  const fn = useFunction(ref, slug)
  const files = useFunctionFiles(ref, slug, fn.isSuccess)
  const settings = useProjectSettings(ref)
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const remove = useDeleteFunction()
  const [deleting, setDeleting] = useState(false)
  const back = (
    <Link to={`/project/${ref}/functions`} className="fn-back">
      <ArrowLeft size={14} aria-hidden="true" /> Edge Functions
    </Link>
  )

  if (fn.isPending) return <LoadingState label="Loading the function…" />
  if (fn.isError) {
    return (
      <div className="page page-narrow">
        <PageHeader eyebrow={back} title={slug} />
        {isApiError(fn.error, 404) ? (
          <Card>
            <EmptyState title="Function not found" description={`There is no edge function with the slug ${slug} in this project.`} />
          </Card>
        ) : (
          <Alert tone="danger" title="Could not load the function">
            {errorMessage(fn.error)}
          </Alert>
        )}
      </div>
    )
  }

  const data = fn.data
  const apiUrl = settings.data ? projectApiUrl(settings.data) : undefined
  return (
    <div className="page">
      <PageHeader
        eyebrow={back}
        title={data.name}
        description={
          <span className="row-wrap">
            <span className="mono">{data.slug}</span>
            <Badge tone="neutral">Version {data.version}</Badge>
            <Badge tone={data.verify_jwt ? 'info' : 'neutral'}>{data.verify_jwt ? 'JWT required' : 'No JWT verification'}</Badge>
          </span>
        }
        actions={
          <Button
            variant="danger"
            icon={<Trash2 size={14} aria-hidden="true" />}
            onClick={() => setDeleting(true)}
            disabled={!canWrite}
            disabledReason={FUNCTION_TEXTS.deletePermission}
          >
            Delete function
          </Button>
        }
      />
      <div className="stack">
        <Alert tone="info" live={false}>
          {FUNCTION_TEXTS.running}
        </Alert>
        <div className="fn-grid">
          <Card title="Details">
            <DetailsList fn={data} />
          </Card>
          <Card title="Endpoint and download">
            <div className="stack">
              {apiUrl ? (
                <CopyField label="Function URL" value={functionUrl(apiUrl, data.slug)} hint="Where the function is served." />
              ) : null}
              <CopyField
                label="Download command"
                value={downloadCommand(window.location.origin, ref, data.slug)}
                hint="Set STRATUM_ACCESS_TOKEN to a personal access token (Account, Access tokens). The files arrive as multipart/form-data."
              />
            </div>
          </Card>
        </div>
        {files.isPending ? (
          <LoadingState label="Loading files…" />
        ) : files.isError ? (
          <Alert tone="danger" title="Could not load the files">
            {errorMessage(files.error)}
          </Alert>
        ) : (
          <FunctionFiles files={files.data} entrypoint={entrypointFile(data)} />
        )}
      </div>
      <DeleteFunctionDialog
        open={deleting}
        onOpenChange={(open) => {
          setDeleting(open)
          if (!open) remove.reset()
        }}
        slug={data.slug}
        loading={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onConfirm={() =>
          remove.mutate(
            { ref, slug: data.slug },
            {
              onSuccess: () => {
                toast.success(`Deleted edge function ${data.slug}`)
                void navigate(`/project/${ref}/functions`)
              },
            },
          )
        }
      />
    </div>
  )
}
