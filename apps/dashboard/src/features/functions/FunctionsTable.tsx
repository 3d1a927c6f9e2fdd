import type { FunctionResponse } from '@stratum/contracts'
import { Link } from 'react-router'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { formatDateTime, humanize } from '../../lib/format'
import { TableHead } from '../../components/ui/TableHead'

const STATUS_TONE = { ACTIVE: 'success', REMOVED: 'neutral', THROTTLED: 'warning' } as const

/** The project's functions: name, slug, version, last update, JWT verification. */
export function FunctionsTable({ functions, projectRef }: { functions: FunctionResponse[]; projectRef: string }) {
  return (
    <Card flush>
      <table className="table" aria-label="Edge functions">
        <TableHead columns={['Name', 'Slug', 'Version', 'Updated', 'Verify JWT', 'Status']} />
        <tbody>
          {functions.map((fn) => (
            <tr key={fn.id}>
              <td>
                <Link className="fn-link" to={`/project/${projectRef}/functions/${fn.slug}/details`}>
                  {fn.name}
                </Link>
              </td>
              <td className="mono nowrap">{fn.slug}</td>
              <td className="nowrap" data-testid="function-version">
                {fn.version}
              </td>
              <td className="nowrap">
                <time dateTime={new Date(fn.updated_at).toISOString()}>{formatDateTime(new Date(fn.updated_at).toISOString())}</time>
              </td>
              <td>
                {fn.verify_jwt ? <Badge tone="info">Required</Badge> : <Badge tone="neutral">Not required</Badge>}
              </td>
              <td>
                <Badge tone={STATUS_TONE[fn.status]}>{humanize(fn.status)}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
