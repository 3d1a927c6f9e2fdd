import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { markOperationStarted } from '../lifecycle/markOperationStarted'

/** Restores the project to a moment of its WAL archive: the project goes RESTORING (the takeover screen shows it). */
export const restoreToPointInTime = ({ projectRef, recoveryTimeTargetUnix }: { projectRef: string; recoveryTimeTargetUnix: number }) =>
  request('POST /platform/database/{ref}/backups/pitr', { params: { ref: projectRef }, body: { recovery_time_target_unix: recoveryTimeTargetUnix } })

export function useRestorePitr() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: restoreToPointInTime,
    onSuccess: (_result, { projectRef }) => markOperationStarted(queryClient, projectRef, 'RESTORING'),
  })
}
