export const WEBHOOK_TEXTS = {
  description: 'Send real-time data from your database to another system whenever a table event occurs.',
  writePermission: 'You need additional permissions to create webhooks',
  editPermission: 'You need additional permissions to update webhooks',
  deletePermission: 'You need additional permissions to delete webhooks',
  emptyTitle: 'No hooks created yet',
  emptyDescription: 'Create a new hook to send data to an HTTP endpoint or an edge function of this project whenever a row changes.',
  deliveriesDescription:
    'The latest calls, sent by the platform once their transaction committed. Answers stay 6 hours (pg_net’s TTL) and are readable in net._http_response.',
  timeoutRange: 'Timeout must be between 1000 ms and 10000 ms',
}

export const EVENT_LABELS = { INSERT: 'Insert', UPDATE: 'Update', DELETE: 'Delete' } as const
