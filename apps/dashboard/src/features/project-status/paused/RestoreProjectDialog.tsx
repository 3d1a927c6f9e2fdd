import type { Project, RestoreVersions } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../../components/ui/Alert'
import { Button } from '../../../components/ui/Button'
import { Dialog } from '../../../components/ui/Dialog'
import { SelectField } from '../../../components/ui/Field'
import { useToast } from '../../../components/ui/Toast'
import { errorMessage } from '../../../data/api'
import { useRestoreProject } from '../../../data/lifecycle/useRestoreProject'
import { useRestoreVersions } from '../../../data/lifecycle/useRestoreVersions'

type Version = RestoreVersions['available_versions'][number]

const versionKey = (version: Version) => `${version.postgres_engine}|${version.release_channel}|${version.version}`

/** The spec's preference: the first general-availability version, otherwise the first one. */
export function preferredVersion(versions: Version[]): Version | undefined {
  return versions.find((version) => version.release_channel === 'ga') ?? versions[0]
}

function VersionSelector({ project, value, onChange }: { project: Project; value: string | null; onChange: (key: string) => void }) {
  const versions = useRestoreVersions(project.ref)
  // A restore never goes down a major version.
  const options = (versions.data?.available_versions ?? []).filter(
    (version) => Number(version.postgres_engine) >= Number(project.postgres_engine),
  )
  if (versions.isPending) return <p className="faint">Loading Postgres versions…</p>
  if (options.length === 0) return null
  // The spec's preselection stands (the first GA version, a newer major when there is one); the list shows the
  // project's own major first, and the dialog says when the chosen version is a major upgrade.
  const preferred = preferredVersion(options)
  const current = project.dbVersion || project.postgres_engine
  const listed = [...options].sort((a, b) => Number(b.postgres_engine === project.postgres_engine) - Number(a.postgres_engine === project.postgres_engine))
  const selectedKey = value ?? (preferred ? versionKey(preferred) : '')
  const selected = options.find((version) => versionKey(version) === selectedKey)
  const upgrade = selected && Number(selected.postgres_engine) > Number(project.postgres_engine) ? selected : null
  return (
    <>
      <SelectField
        label="Postgres version"
        hint={`The project ran Postgres ${current} when it was paused.`}
        value={selectedKey}
        onChange={(event) => onChange(event.target.value)}
      >
        {listed.map((version) => (
          <option key={versionKey(version)} value={versionKey(version)}>
            Postgres {version.version}
            {version.postgres_engine === project.postgres_engine ? ' (current)' : ''}
            {version.release_channel !== 'ga' ? ` (${version.release_channel})` : ''}
          </option>
        ))}
      </SelectField>
      {upgrade ? (
        <Alert tone="warning" title={`A major upgrade: Postgres ${current} to ${upgrade.version}`}>
          The data is upgraded to Postgres {upgrade.postgres_engine} as the project is restored, which takes longer than a restore on
          Postgres {project.postgres_engine} and cannot be undone. Choose Postgres {project.postgres_engine} above to keep the version it ran.
        </Alert>
      ) : null}
    </>
  )
}

interface RestoreProjectDialogProps {
  project: Project
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** Confirms the restore, with an optional choice of Postgres version. */
export function RestoreProjectDialog({ project, open, onOpenChange }: RestoreProjectDialogProps) {
  const toast = useToast()
  const restore = useRestoreProject()
  const versions = useRestoreVersions(project.ref, open)
  const [chosen, setChosen] = useState<string | null>(null)

  const confirm = () => {
    const options = versions.data?.available_versions ?? []
    const version =
      options.find((option) => versionKey(option) === chosen) ??
      preferredVersion(options.filter((option) => Number(option.postgres_engine) >= Number(project.postgres_engine)))
    // mutateAsync: the toast must show even though this dialog unmounts as the restoring screen takes over.
    restore
      .mutateAsync({
        ref: project.ref,
        ...(version ? { postgres_engine: version.postgres_engine, release_channel: version.release_channel } : {}),
      })
      .then(
        () => {
          toast.info('Restoring project')
          onOpenChange(false)
        },
        (error: unknown) => toast.error(`Failed to restore project: ${errorMessage(error)}`),
      )
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (restore.isPending && !next) return
        if (!next) setChosen(null)
        onOpenChange(next)
      }}
      title="Restore this project"
      description="Postgres starts again on the project's data as it was when the project was paused. The project is offline until the restore is complete."
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={restore.isPending}>
            Cancel
          </Button>
          <Button variant="primary" loading={restore.isPending} onClick={confirm}>
            Restore project
          </Button>
        </>
      }
    >
      <VersionSelector project={project} value={chosen} onChange={setChosen} />
    </Dialog>
  )
}
