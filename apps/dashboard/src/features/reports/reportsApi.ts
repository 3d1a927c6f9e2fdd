import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CONTENT_LIST_LIMIT, type ContentItem } from '@stratum/contracts'
import { api } from '../../data/api'
import { contentPath } from '../../data/content/contentPath'
import { postContent } from '../../data/content/postContent'
import { contentKeys } from '../../data/content/keys'

/** One pinned snippet of a report. */
export interface ReportWidget {
  snippet_id: string
}

export interface ReportContent {
  schema_version: '1.0'
  layout: ReportWidget[]
}

const reportKeys = {
  list: (ref: string) => [...contentKeys.all(ref), 'reports'] as const,
  item: (ref: string, id: string) => [...contentKeys.all(ref), 'report', id] as const,
}

/** The layout of a report: content.layout (declared by the content contract). */
export function reportLayout(item: ContentItem): ReportWidget[] {
  const layout = (item.content as Partial<ReportContent> | undefined)?.layout
  return Array.isArray(layout) ? layout.filter((widget) => typeof widget?.snippet_id === 'string') : []
}

function reportBody(layout: ReportWidget[]) {
  const content: ReportContent = { schema_version: '1.0', layout }
  return { content: { ...content, sql: '' } }
}

export const getReports = (ref: string, signal?: AbortSignal) =>
  api<{ data: ContentItem[] }>(contentPath(ref, `?type=report&limit=${CONTENT_LIST_LIMIT}&sort_by=inserted_at&sort_order=desc`), { signal }).then(
    (page) => page.data,
  )

export function useReports(ref: string) {
  return useQuery({ queryKey: reportKeys.list(ref), queryFn: ({ signal }) => getReports(ref, signal), enabled: Boolean(ref) })
}

export function useReport(ref: string, id: string | undefined) {
  return useQuery({
    queryKey: reportKeys.item(ref, id ?? ''),
    queryFn: ({ signal }) => api<ContentItem>(contentPath(ref, `/item/${encodeURIComponent(id!)}`), { signal }),
    enabled: Boolean(ref && id),
    retry: false,
  })
}

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

/** PUT /content (upsert by id): the report with its new layout. */
export function useSaveReportLayout(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ report, layout }: { report: ContentItem; layout: ReportWidget[] }) =>
      api<ContentItem>(contentPath(ref), { method: 'PUT', body: { id: report.id, owner_id: report.owner_id, type: 'report', ...reportBody(layout) } }),
    onSuccess: (item) => {
      queryClient.setQueryData(reportKeys.item(ref, item.id), item)
      return queryClient.invalidateQueries({ queryKey: reportKeys.list(ref) })
    },
  })
}
