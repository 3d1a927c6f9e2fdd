import { describeCronSchedule } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field'

/** Schedules people reach for first: pg_cron's seconds and the usual cron lines. */
const PRESETS = [
  ['5 seconds', 'Every 5 seconds'],
  ['30 seconds', 'Every 30 seconds'],
  ['* * * * *', 'Every minute'],
  ['*/5 * * * *', 'Every 5 minutes'],
  ['0 * * * *', 'Every hour'],
  ['0 0 * * *', 'Every day at midnight (UTC)'],
  ['0 3 * * 0', 'Every Sunday at 03:00 (UTC)'],
] as const

export interface NewJob {
  name: string
  schedule: string
  command: string
}

/** The new job's name, schedule (cron syntax or '[1-59] seconds', read back in words) and SQL; its SQL is shown next. */
export function CreateJobDialog({ open, onClose, onReview }: { open: boolean; onClose: () => void; onReview: (job: NewJob) => void }) {
  const [name, setName] = useState('')
  const [schedule, setSchedule] = useState('')
  const [command, setCommand] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const reading = describeCronSchedule(schedule)
  const errors = {
    name: name.trim() ? undefined : 'Give the job a name',
    schedule: !schedule.trim() ? 'Enter a schedule' : reading ? undefined : "Not a schedule pg_cron reads: use cron's 5 fields (e.g. */5 * * * *) or '[1-59] seconds'",
    command: command.trim() ? undefined : 'Enter the SQL to run',
  }
  const valid = !errors.name && !errors.schedule && !errors.command

  const reset = () => {
    setName('')
    setSchedule('')
    setCommand('')
    setSubmitted(false)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!valid) return
    onReview({ name: name.trim(), schedule: schedule.trim(), command: command.trim() })
    reset()
  }
  const close = () => {
    reset()
    onClose()
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title="Create cron job"
      description="The job runs as postgres, the role that schedules it, on the schedule you give (times are UTC)."
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="cron-create-form">
            Review SQL
          </Button>
        </>
      }
    >
      <form id="cron-create-form" className="cron-form" onSubmit={submit} noValidate>
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} error={submitted ? errors.name : undefined} placeholder="nightly-cleanup" autoFocus />
        <SelectField label="Preset" value="" onChange={(event) => event.target.value && setSchedule(event.target.value)}>
          <option value="">Choose a common schedule…</option>
          {PRESETS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Schedule"
          className="mono"
          value={schedule}
          onChange={(event) => setSchedule(event.target.value)}
          placeholder="*/5 * * * *  or  10 seconds"
          hint={reading ?? "Cron syntax (minute hour day-of-month month day-of-week; $ is the month's last day) or '[1-59] seconds'"}
          error={submitted || (schedule.trim() && !reading) ? errors.schedule : undefined}
        />
        <TextAreaField
          label="SQL command"
          className="mono"
          rows={5}
          value={command}
          onChange={(event) => setCommand(event.target.value)}
          placeholder="delete from events where created_at < now() - interval '7 days'"
          error={submitted ? errors.command : undefined}
        />
      </form>
    </Dialog>
  )
}
