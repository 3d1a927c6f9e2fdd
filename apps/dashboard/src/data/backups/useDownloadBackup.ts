import { useMutation } from '@tanstack/react-query'
import { api } from '../api'

export const requestBackupDownload = ({ ref, id }: { ref: string; id: number }) =>
  api<{ fileUrl: string }>(`/platform/database/${encodeURIComponent(ref)}/backups/download`, {
    method: 'POST',
    body: { id },
  })

/** Asks for a short-lived signed link to one backup; the caller opens fileUrl as a download. */
export function useDownloadBackup() {
  return useMutation({ mutationFn: requestBackupDownload })
}
