import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CONTENT_LIST_LIMIT, type ContentItem } from '@stratum/contracts'
import { postContent } from '../../data/content/postContent'
import { contentKeys } from '../../data/content/keys'
import { request } from '../../data/request'
import { type ReportContent, type ReportWidget } from './layout'

export { reportLayout, widgetIsAt, withoutWidget, withWidgetChart, type ReportWidget } from './layout'

const reportKeys = {
  list: (ref: string) => [...contentKeys.all(ref), 'reports'] as const,
  item: (ref: string, id: string) => [...contentKeys.all(ref), 'report', id] as const,
}

function reportBody(layout: ReportWidget[]) {
  const content: ReportContent = { schema_version: '1.0', layout }
  return { content: { ...content, sql: '' } }
}

export const getReports = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/content', {
    params: { ref },
    query: { type: 'report', limit: CONTENT_LIST_LIMIT, sort_by: 'inserted_at', sort_order: 'desc' },
    signal,
  }).then((page) => page.data)

export const reportsQuery = (ref: string | undefined) =>
  queryOptions({ queryKey: reportKeys.list(ref ?? ''), queryFn: ref ? ({ signal }) => getReports(ref, signal) : skipToken })

export const useReports = (ref: string | undefined) => useQuery(reportsQuery(ref))

export const reportQuery = (ref: string | undefined, id: string | undefined) =>
  queryOptions({
    queryKey: reportKeys.item(ref ?? '', id ?? ''),
    queryFn: ref && id ? ({ signal }) => request('GET /platform/projects/{ref}/content/item/{id}', { params: { ref, id }, signal }) : skipToken,
    retry: false,
  })

export const useReport = (ref: string | undefined, id: string | undefined) => useQuery(reportQuery(ref, id))

/** A new private report with no widgets yet. */
export function createReport(ref: string, name: string): Promise<ContentItem> {
  return postContent(ref, { id: crypto.randomUUID(), name, type: 'report', visibility: 'user', ...reportBody([]) })
}

export function useCreateReport(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => createReport(ref, name),
    onSuccess: (item) => {
      queryClient.setQueryData(reportKeys.item(ref, item.id), item)
      return queryClient.invalidateQueries({ queryKey: reportKeys.list(ref) })
    },
  })
}

/**
 * PUT /content (upsert by id): the report with its new layout. Shown at once (a chart setting changes the page before the
 * server answers), and saves of one report run one after the other, so an older answer never overwrites a newer layout.
 */
export function useSaveReportLayout(ref: string, reportId: string | undefined) {
  const queryClient = useQueryClient()
  const scope = `report-layout-${ref}-${reportId ?? ''}`
  return useMutation({
    scope: { id: scope },
    mutationFn: ({ report, layout }: { report: ContentItem; layout: ReportWidget[] }) =>
      request('PUT /platform/projects/{ref}/content', {
        params: { ref },
        body: { id: report.id, owner_id: report.owner_id, type: 'report', ...reportBody(layout) },
      }),
    onMutate: async ({ report, layout }) => {
      const key = reportKeys.item(ref, report.id)
      await queryClient.cancelQueries({ queryKey: key })
      queryClient.setQueryData<ContentItem>(key, { ...report, content: { ...report.content, layout } as ContentItem['content'] })
    },
    // What the server holds is the truth again.
    onError: (_error, { report }) => queryClient.invalidateQueries({ queryKey: reportKeys.item(ref, report.id) }),
    onSuccess: (item) => {
      // A later save, already shown and still pending, is newer than this answer: only the last answer replaces the cache.
      if (queryClient.isMutating({ predicate: (mutation) => mutation.options.scope?.id === scope }) <= 1) queryClient.setQueryData(reportKeys.item(ref, item.id), item)
      return queryClient.invalidateQueries({ queryKey: reportKeys.list(ref) })
    },
  })
}
