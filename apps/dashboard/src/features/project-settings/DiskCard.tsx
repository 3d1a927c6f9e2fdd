import { DISK_QUOTA_MAX_GB, DISK_QUOTA_MIN_GB, GB, READONLY_THRESHOLD, type Project } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useChangeDiskQuota, useDisableReadOnlyTemporarily, useDiskQuota } from '../../data/usage/useDiskQuota'
import { useResourceWarnings } from '../../data/usage/useResourceWarnings'

const formatGb = (bytes: number) => `${(bytes / GB).toFixed(bytes < 10 * GB ? 2 : 1)} GB`

/** The disk quota resource warnings and read-only mode measure against: raised up to 200GB (the project shell spec's limit). */
export function DiskCard({ project }: { project: Project }) {
  const toast = useToast()
  const permitted = useCan(project.organization_slug, 'infrastructure.execute')
  const quota = useDiskQuota(project.ref)
  const warnings = useResourceWarnings()
  const change = useChangeDiskQuota()
  const override = useDisableReadOnlyTemporarily()
  const current = quota.data ? Math.round(quota.data.size_bytes / GB) : null
  const [size, setSize] = useState<string>('')
  const chosen = Number(size || current || 0)
  const invalid = !Number.isInteger(chosen) || chosen < DISK_QUOTA_MIN_GB || chosen > DISK_QUOTA_MAX_GB
  const readonly = warnings.data?.find((record) => record.project === project.ref)?.is_readonly_mode_enabled ?? false
  const used = quota.data?.used_bytes ?? null
  const ratio = quota.data && used !== null ? used / quota.data.size_bytes : null
  const reason = !permitted ? 'You need additional permissions to change the disk size of this project' : invalid ? `Choose between ${DISK_QUOTA_MIN_GB} and ${DISK_QUOTA_MAX_GB} GB` : undefined

  return (
    <Card
      title="Disk"
      description={`Disk size can be increased up to ${DISK_QUOTA_MAX_GB}GB. At ${READONLY_THRESHOLD * 100}% of it the project goes read-only; it leaves read-only mode once below.`}
      footer={
        <Button
          variant="primary"
          disabled={Boolean(reason) || chosen === current}
          disabledReason={reason}
          loading={change.isPending}
          onClick={() =>
            change.mutate(
              { ref: project.ref, sizeGb: chosen },
              { onSuccess: () => toast.success(`Disk size set to ${chosen} GB`), onError: (error) => toast.error(`Failed to change the disk size: ${errorMessage(error)}`) },
            )
          }
        >
          Save disk size
        </Button>
      }
    >
      <div className="stack">
        {readonly ? (
          <Alert
            tone="danger"
            title="Project is in read-only mode"
            actions={
              <Button
                size="sm"
                disabled={!permitted}
                disabledReason={permitted ? undefined : 'You need additional permissions to change the disk size of this project'}
                loading={override.isPending}
                onClick={() =>
                  override.mutate(
                    { ref: project.ref },
                    { onSuccess: () => toast.success('Writes are allowed for 15 minutes: delete data to get below 95%'), onError: (error) => toast.error(errorMessage(error)) },
                  )
                }
              >
                Allow writes for 15 minutes
              </Button>
            }
          >
            The disk is at 95% of its size or more. Increase the disk size, or allow writes for a while to delete data.
          </Alert>
        ) : null}
        <div className="disk-usage" data-testid="disk-usage">
          <div className="disk-usage-text">
            {quota.data ? (used !== null ? `${formatGb(used)} used of ${formatGb(quota.data.size_bytes)}` : `${formatGb(quota.data.size_bytes)}: not measured yet`) : 'Loading…'}
          </div>
          {ratio !== null ? (
            <div className="disk-usage-bar" role="meter" aria-label="Disk used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(ratio * 100)}>
              <div className="disk-usage-fill" data-level={ratio >= 0.9 ? 'critical' : ratio >= 0.8 ? 'warning' : 'ok'} style={{ width: `${Math.min(100, ratio * 100)}%` }} />
            </div>
          ) : null}
        </div>
        <TextField
          label="Disk size (GB)"
          type="number"
          min={DISK_QUOTA_MIN_GB}
          max={DISK_QUOTA_MAX_GB}
          step={1}
          value={size || (current ?? '')}
          onChange={(event) => setSize(event.target.value)}
          disabled={!permitted}
          hint={`Up to ${DISK_QUOTA_MAX_GB}GB`}
        />
      </div>
    </Card>
  )
}
