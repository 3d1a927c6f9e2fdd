import { useQueryClient } from '@tanstack/react-query'
import { CONTENT_TEXTS, aiFailedToGenerateTitle, type ContentItem } from '@stratum/contracts'
import { useEffect, useState } from 'react'
import { useToast } from '../../../components/ui/Toast'
import { useAiKeyCheck } from '../../../data/ai/useAiKeyCheck'
import { useGenerateTitle } from '../../../data/ai/useGenerateTitle'
import { errorMessage } from '../../../data/api'
import { contentKeys } from '../../../data/content/keys'
import { useSaveSnippet, type SnippetChanges } from '../../../data/content/useSaveSnippet'
import type { RunRecord } from '../results'

/** Snippets whose title was asked for in this page session: once each, success or not. */
const asked = new Set<string>()

interface AutoTitleOptions {
  projectRef: string
  snippet: ContentItem
  canSave: boolean
  /** The snippet's newest run. */
  latestRun: RunRecord | undefined
  /** The snippet's whole SQL as it is in the editor. */
  getSql: () => string
}

/**
 * Names an 'Untitled query' after its first successful run (the SQL editor spec's title call and its errors): the title and
 * description come from POST /api/ai/sql/title-v2 and are saved like a rename from the explorer.
 * Only when an AI provider is configured, and never over a name the user gave.
 */
export function useAutoTitle({ projectRef, snippet, canSave, latestRun, getSql }: AutoTitleOptions) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const keyCheck = useAiKeyCheck(canSave)
  const generate = useGenerateTitle().mutate
  const save = useSaveSnippet().mutate
  // Runs from before this editor opened do not count.
  const [firstRunId] = useState(latestRun?.id ?? 0)
  const hasKey = keyCheck.data?.hasKey === true
  const untitled = snippet.name === CONTENT_TEXTS.defaultSnippetName
  const succeeded = latestRun !== undefined && latestRun.id > firstRunId && !latestRun.error && latestRun.response !== undefined

  useEffect(() => {
    const key = `${projectRef}/${snippet.id}`
    if (!succeeded || !untitled || !hasKey || !canSave || asked.has(key)) return
    const sql = getSql()
    if (!sql.trim()) return
    asked.add(key)
    const current = () => queryClient.getQueryData<ContentItem>(contentKeys.snippet(projectRef, snippet.id)) ?? snippet
    generate(
      { sql, projectRef },
      {
        onSuccess: ({ title, description }) => {
          const stored = current()
          // Renamed by the user meanwhile: their name stays.
          if (stored.name !== CONTENT_TEXTS.defaultSnippetName || !title.trim()) return
          const changes: SnippetChanges = { name: title.trim(), description }
          save(
            { ref: projectRef, snippet: stored, changes },
            { onError: (error) => toast.error(`Failed to update query: ${errorMessage(error)}`) },
          )
        },
        onError: (error) => toast.error(aiFailedToGenerateTitle(errorMessage(error))),
      },
    )
  }, [succeeded, untitled, hasKey, canSave, projectRef, snippet, getSql, generate, save, queryClient, toast])
}
