import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { databaseWebhookKeys } from './keys'
import type { WebhookDelivery } from './types'
import { DELIVERIES_QUERY, HOOKS_QUERY, parseHookRow, WEBHOOK_TABLES_QUERY, type HookRow } from './webhookSql'

/** The project's database webhooks, read from the catalog on the read-only connection. */
export const databaseWebhooksQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseWebhookKeys.hooks(ref ?? ''),
    queryFn: ref ? async ({ signal }) => (await readCatalog<HookRow[]>(ref, HOOKS_QUERY, signal)).map(parseHookRow) : skipToken,
  })

/** The latest calls and their answers; read again every few seconds while shown (answers arrive after the commit). */
export const webhookDeliveriesQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseWebhookKeys.deliveries(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<WebhookDelivery[]>(ref, DELIVERIES_QUERY, signal) : skipToken,
    refetchInterval: 5_000,
  })

export const webhookTablesQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseWebhookKeys.tables(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<Array<{ schema: string; table: string }>>(ref, WEBHOOK_TABLES_QUERY, signal) : skipToken,
    staleTime: 30_000,
  })

export const useDatabaseWebhooks = (ref: string | undefined) => useQuery(databaseWebhooksQuery(ref))
export const useWebhookDeliveries = (ref: string | undefined) => useQuery(webhookDeliveriesQuery(ref))
export const useWebhookTables = (ref: string | undefined) => useQuery(webhookTablesQuery(ref))
