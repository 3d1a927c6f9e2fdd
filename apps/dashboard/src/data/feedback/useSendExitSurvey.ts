import { useMutation } from '@tanstack/react-query'
import { request } from '../request'

export interface ExitSurvey {
  projectRef: string
  orgSlug: string
  reasons: string[]
  additionalFeedback: string
  exitAction: 'delete'
}

export const sendExitSurvey = (body: ExitSurvey) => request('POST /platform/feedback/downgrade', { body })

/** The delete flow's exit survey. Its failure never stops the deletion. */
export function useSendExitSurvey() {
  return useMutation({ mutationFn: sendExitSurvey })
}
