import { CONTENT_NAME_MAX, type ContentItem, type ContentListItem } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef } from 'react'
import { useNavigate } from 'react-router'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { contentKeys } from '../../data/content/keys'
import { useCreateSnippet } from '../../data/content/useCreateSnippet'
import { getSnippet } from '../../data/content/useSnippet'
import { getDraft } from './drafts'

/** The SQL of a snippet as the user last saw it: their unsaved draft, else the listed or stored content. */
export async function snippetSql(queryClient: ReturnType<typeof useQueryClient>, ref: string, snippet: ContentListItem): Promise<string> {
  return (
    getDraft(ref, snippet.id).sql ??
    (snippet as Partial<ContentItem>).content?.sql ??
    (await queryClient.ensureQueryData({ queryKey: contentKeys.snippet(ref, snippet.id), queryFn: ({ signal }) => getSnippet(ref, snippet.id, signal) })).content.sql
  )
}

/**
 * "Duplicate query" / "Duplicate to my queries": a private copy of the caller's own (name and SQL),
 * opened in the editor. The only way to change a shared snippet one does not own.
 */
export function useDuplicateSnippet(ref: string) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const toast = useToast()
  const { mutate, isPending } = useCreateSnippet()
  // One duplicate at a time: the button is not disabled while it runs (nor before the page re-renders), and a double
  // click made two copies.
  const busy = useRef(false)
  const duplicate = useCallback(
    async (snippet: ContentListItem) => {
      if (busy.current) return
      busy.current = true
      let sql: string
      try {
        sql = await snippetSql(queryClient, ref, snippet)
      } catch (error) {
        busy.current = false
        toast.error(`Failed to duplicate query: ${errorMessage(error)}`)
        return
      }
      mutate(
        { ref, id: crypto.randomUUID(), sql, name: `${snippet.name} (copy)`.slice(0, CONTENT_NAME_MAX) },
        {
          onSuccess: (item) => {
            toast.success('Query duplicated')
            void navigate(`/project/${ref}/sql/${item.id}`)
          },
          onError: (error) => toast.error(`Failed to duplicate query: ${errorMessage(error)}`),
          onSettled: () => {
            busy.current = false
          },
        },
      )
    },
    [queryClient, ref, mutate, navigate, toast],
  )
  return { duplicate, duplicating: isPending }
}
