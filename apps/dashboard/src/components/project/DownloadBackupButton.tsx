import { Download } from 'lucide-react'
import { Button, type ButtonProps } from '../ui/Button'
import { useToast } from '../ui/Toast'
import { errorMessage } from '../../data/api'
import { useDownloadBackup } from '../../data/backups/useDownloadBackup'
import { useDownloadableBackups } from '../../data/backups/useDownloadableBackups'
import { useCan } from '../../data/profile/useCan'
import { startDownload } from '../../lib/download'

export const NO_BACKUPS_TO_DOWNLOAD = 'No available backups to download'
export const DOWNLOAD_PERMISSION = 'You need additional permissions to download backups'

interface DownloadBackupButtonProps extends Pick<ButtonProps, 'variant' | 'size'> {
  projectRef: string
  orgSlug: string | undefined
  label?: string
  /**
   * The backup to download. Left out: the newest downloadable (logical) backup. null: there is
   * none (the caller knows, e.g. from the pause status).
   */
  backupId?: number | null
}

/**
 * Asks the server for a signed link to a backup and lets the browser download it. Disabled,
 * with the reason as a tooltip, when there is nothing to download or the role may not.
 */
export function DownloadBackupButton({
  projectRef,
  orgSlug,
  label = 'Download backup',
  backupId,
  variant = 'secondary',
  size = 'md',
}: DownloadBackupButtonProps) {
  const toast = useToast()
  const canDownload = useCan(orgSlug, 'infrastructure.execute')
  const latest = useDownloadableBackups(projectRef, backupId === undefined)
  const download = useDownloadBackup()
  const id = backupId === undefined ? latest.data?.[0]?.id : backupId
  const pending = backupId === undefined && latest.isPending

  const reason = !id ? NO_BACKUPS_TO_DOWNLOAD : !canDownload ? DOWNLOAD_PERMISSION : undefined

  return (
    <Button
      variant={variant}
      size={size}
      icon={<Download size={14} aria-hidden="true" />}
      disabled={pending || Boolean(reason)}
      disabledReason={pending ? undefined : reason}
      loading={download.isPending}
      onClick={() => {
        if (!id) return
        download.mutate(
          { ref: projectRef, id },
          {
            onSuccess: ({ fileUrl }) => startDownload(fileUrl),
            onError: (error) => toast.error('Failed to download backup', errorMessage(error)),
          },
        )
      }}
    >
      {label}
    </Button>
  )
}
