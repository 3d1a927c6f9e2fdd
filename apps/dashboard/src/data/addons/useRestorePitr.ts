import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { markOperationStarted } from '../lifecycle/markOperationStarted'

/** Restores the project to a moment of its WAL archive: the project goes RESTORING (the takeover screen shows it). */
export const restoreToPointInTime = ({ projectRef, recoveryTimeTargetUnix }: { projectRef: string; recoveryTimeTargetUnix: number }) =>
  api<{ operation_id: string }>(`/platform/database/${encodeURIComponent(projectRef)}/backups/pitr`, {
    method: 'POST',
    body: { recovery_time_target_unix: recoveryTimeTargetUnix },
  })

export function useRestorePitr() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: restoreToPointInTime,
    onSuccess: (_result, { projectRef }) => markOperationStarted(queryClient, projectRef, 'RESTORING'),
  })
}
