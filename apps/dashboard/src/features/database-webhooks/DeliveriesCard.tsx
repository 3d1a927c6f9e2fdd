import { Activity } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { TableHead } from '../../components/ui/TableHead'
import { useWebhookDeliveries } from '../../data/database-webhooks/useDatabaseWebhooks'
import type { WebhookDelivery } from '../../data/database-webhooks/types'
import { formatTimestamp } from '../../lib/format'
import { WEBHOOK_TEXTS } from './texts'

function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.timed_out) return <Badge tone="danger">Timed out</Badge>
  if (delivery.error_msg) return <Badge tone="danger">Failed</Badge>
  if (delivery.status_code === null) return <Badge tone="neutral">{delivery.answered_at ? 'No status' : 'Pending'}</Badge>
  return <Badge tone={delivery.status_code < 300 ? 'success' : delivery.status_code < 500 ? 'warning' : 'danger'}>{delivery.status_code}</Badge>
}

/** The latest calls of the project's webhooks and their answers (net._http_response). */
export function DeliveriesCard({ projectRef }: { projectRef: string }) {
  const deliveries = useWebhookDeliveries(projectRef)
  return (
    <Card title="Recent deliveries" description={WEBHOOK_TEXTS.deliveriesDescription} flush>
      {deliveries.isPending ? (
        <LoadingState label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <QueryError query={deliveries} title="Could not load the deliveries" />
      ) : deliveries.data.length === 0 ? (
        <EmptyState icon={<Activity size={22} />} title="No deliveries yet" description="Each change of a watched table shows here with its answer." />
      ) : (
        <table className="table webhooks-deliveries" aria-label="Recent deliveries">
          <TableHead columns={['Time', 'Webhook', 'Table', 'Status', 'Response']} />
          <tbody>
            {deliveries.data.map((delivery) => (
              <tr key={delivery.id}>
                <td className="nowrap">{formatTimestamp(delivery.created_at, 'local')}</td>
                <td className="mono nowrap">{delivery.hook_name}</td>
                <td className="mono nowrap">{delivery.table ? `${delivery.schema}.${delivery.table}` : <span className="muted">-</span>}</td>
                <td>
                  <DeliveryStatus delivery={delivery} />
                </td>
                <td className="webhooks-response mono">{delivery.error_msg ?? delivery.content ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  )
}
