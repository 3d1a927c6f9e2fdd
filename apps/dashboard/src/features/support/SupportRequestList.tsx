import { Inbox } from 'lucide-react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useSupportRequests } from '../../data/support/useSupportRequests'
import { formatDateTime, humanize } from '../../lib/format'

export function SupportRequestList() {
  const requests = useSupportRequests()
  return (
    <section aria-labelledby="requests-heading" className="stack-sm">
      <h2 id="requests-heading">Your requests</h2>
      {requests.isPending ? <LoadingState label="Loading requests…" /> : null}
      {requests.isError ? (
        <Alert tone="danger" title="Could not load your requests">
          {errorMessage(requests.error)}
        </Alert>
      ) : null}
      {requests.data?.length === 0 ? (
        <p className="support-empty muted">
          <Inbox size={16} aria-hidden="true" /> You have not sent any requests.
        </p>
      ) : null}
      {requests.data && requests.data.length > 0 ? (
        <ul className="support-list">
          {[...requests.data]
            .sort((a, b) => b.created_at.localeCompare(a.created_at))
            .map((request) => (
              <li key={request.id} className="support-item">
                <div className="support-item-head">
                  <span className="support-item-subject">{request.subject}</span>
                  <Badge>{humanize(request.category)}</Badge>
                </div>
                <div className="support-item-meta">
                  {formatDateTime(request.created_at)}
                  {request.project_ref ? (
                    <>
                      {' · '}
                      <span className="mono">{request.project_ref}</span>
                    </>
                  ) : null}
                </div>
                <p className="support-item-message">{request.message}</p>
              </li>
            ))}
        </ul>
      ) : null}
    </section>
  )
}
