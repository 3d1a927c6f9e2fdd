import { useId, useState, type FormEvent } from 'react'
import { Button } from '../../../components/ui/Button'
import { Dialog } from '../../../components/ui/Dialog'
import { TextField } from '../../../components/ui/Field'
import { Switch } from '../../../components/ui/Switch'
import { useToast } from '../../../components/ui/Toast'
import { useHasPitr } from '../../../data/addons/useProjectAddons'
import { usePitrWindow } from '../../../data/addons/usePitrWindow'
import { errorMessage } from '../../../data/api'
import { useCreateBranch } from '../../../data/branches/useCreateBranch'
import { PointInTimeField } from '../PointInTimeField'
import { fromUtcInputValue, pointInTimeError, toUtcInputValue, windowBounds } from '../pointInTime'
import { useValidatedField } from '../useValidatedField'
import { branchNameError } from '../validation'
import '../branching.css'

export interface CreateBranchDialogProps {
  projectRef: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Opened from the Point in time page: the moment chosen there (unix seconds). */
  recoveryTimeTargetUnix?: number
  /** Called with the new branch's name once the server accepted it. */
  onCreated?: (name: string) => void
}

function OpenCreateBranchDialog({ projectRef, onOpenChange, recoveryTimeTargetUnix, onCreated }: Omit<CreateBranchDialogProps, 'open'>) {
  const formId = useId()
  const toast = useToast()
  const create = useCreateBranch()
  const hasPitr = useHasPitr(projectRef)
  const pitrWindow = usePitrWindow(hasPitr ? projectRef : undefined)
  const bounds = windowBounds(pitrWindow.data?.physical_backup_data)

  const name = useValidatedField('', branchNameError)
  const [gitBranch, setGitBranch] = useState('')
  const [withData, setWithData] = useState(false)
  const [fromPoint, setFromPoint] = useState(recoveryTimeTargetUnix !== undefined)
  const [moment, setMoment] = useState(recoveryTimeTargetUnix === undefined ? '' : toUtcInputValue(recoveryTimeTargetUnix))
  const [momentChecked, setMomentChecked] = useState(false)
  const momentError = fromPoint ? pointInTimeError(moment, bounds) : undefined

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setMomentChecked(true)
    if (!name.check() || momentError) return
    const branchName = name.value.trim()
    create.mutate(
      {
        projectRef,
        branchName,
        gitBranch: gitBranch.trim() || undefined,
        withData,
        recoveryTimeTargetUnix: fromPoint ? fromUtcInputValue(moment) : undefined,
      },
      {
        onSuccess: () => {
          toast.success(`Creating branch ${branchName}`)
          onOpenChange(false)
          onCreated?.(branchName)
        },
        onError: (error) => toast.error(`Failed to create branch: ${errorMessage(error)}`),
      },
    )
  }

  return (
    <Dialog
      open
      onOpenChange={(next) => (create.isPending && !next ? undefined : onOpenChange(next))}
      title="Create branch"
      description="A preview branch is a Postgres project of its own, copied from production: its schema, roles and settings, and its data if you ask."
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={create.isPending} disabled={!name.valid}>
            Create branch
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="stack">
        <TextField
          label="Branch name"
          placeholder="e.g. feature-login"
          value={name.value}
          onChange={(event) => name.setValue(event.target.value)}
          onBlur={name.onBlur}
          error={name.error}
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
        <TextField
          label="Git branch (optional)"
          placeholder="e.g. feature/login"
          value={gitBranch}
          onChange={(event) => setGitBranch(event.target.value)}
          hint="With a connected repository, the SQL files in this Git branch's supabase/migrations are applied to the new branch."
          autoComplete="off"
          spellCheck={false}
        />
        <div className="branch-toggle">
          <Switch checked={withData} onCheckedChange={setWithData} label="Include data" />
          <div className="branch-toggle-text">
            <span className="field-label">Include data</span>
            <span className="field-hint">
              {withData
                ? "The branch gets a copy of production's rows too. The copy is physical and made online: on a copy-on-write filesystem it takes seconds whatever the size."
                : 'Schema only: the tables, functions, roles and settings of production, with empty tables.'}
            </span>
          </div>
        </div>
        {hasPitr && bounds ? (
          <div className="stack-sm">
            <label className="branching-checkbox">
              <input type="checkbox" checked={fromPoint} onChange={(event) => setFromPoint(event.target.checked)} />
              <span>From a point in time</span>
            </label>
            {fromPoint ? (
              <PointInTimeField
                label="Copy production as it was at"
                value={moment}
                onChange={setMoment}
                bounds={bounds}
                error={momentChecked ? momentError : undefined}
              />
            ) : null}
          </div>
        ) : null}
      </form>
    </Dialog>
  )
}

/** The Branches page's 'Create branch' dialog; mounted only while open so each opening starts empty. */
export function CreateBranchDialog({ open, ...props }: CreateBranchDialogProps) {
  return open ? <OpenCreateBranchDialog {...props} /> : null
}
