export const databaseWebhookKeys = {
  all: (ref: string) => ['database-webhooks', ref] as const,
  hooks: (ref: string) => [...databaseWebhookKeys.all(ref), 'hooks'] as const,
  deliveries: (ref: string) => [...databaseWebhookKeys.all(ref), 'deliveries'] as const,
  tables: (ref: string) => [...databaseWebhookKeys.all(ref), 'tables'] as const,
}
