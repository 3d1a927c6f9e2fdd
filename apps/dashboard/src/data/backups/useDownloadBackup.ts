import { useMutation } from '@tanstack/react-query'
import { request } from '../request'

export const requestBackupDownload = ({ ref, id }: { ref: string; id: number }) =>
  request('POST /platform/database/{ref}/backups/download', { params: { ref }, body: { id } })

/** Asks for a short-lived signed link to one backup; the caller opens fileUrl as a download. */
export function useDownloadBackup() {
  return useMutation({ mutationFn: requestBackupDownload })
}
