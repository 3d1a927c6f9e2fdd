import { useMutation } from '@tanstack/react-query'
import { api } from '../api'

export interface ExitSurvey {
  projectRef: string
  orgSlug: string
  reasons: string[]
  additionalFeedback: string
  exitAction: 'delete'
}

export const sendExitSurvey = (body: ExitSurvey) => api<unknown>('/platform/feedback/downgrade', { method: 'POST', body })

/** The delete flow's exit survey. Its failure never stops the deletion. */
export function useSendExitSurvey() {
  return useMutation({ mutationFn: sendExitSurvey })
}
