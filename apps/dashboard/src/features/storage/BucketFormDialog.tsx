import { BucketName, MimeType, type Bucket } from '@stratum/contracts'
import { useId, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateBucket } from '../../data/storage/useCreateBucket'
import { useUpdateBucket } from '../../data/storage/useUpdateBucket'
import { SIZE_UNITS, splitSize, type SizeUnit } from './texts'
import { Checkbox } from '../../components/ui/Checkbox'

type MimeMode = 'all' | 'only'

interface BucketFormProps {
  formId: string
  projectRef: string
  /** Editing this bucket; creating when undefined. */
  bucket?: Bucket
  onDone: () => void
  onPendingChange: (pending: boolean) => void
}

/** The form lives inside the dialog's content, so it starts from the bucket each time it opens. */
function BucketForm({ formId, projectRef, bucket, onDone, onPendingChange }: BucketFormProps) {
  const toast = useToast()
  const create = useCreateBucket()
  const update = useUpdateBucket()
  const initialSize = bucket?.file_size_limit != null ? splitSize(bucket.file_size_limit) : { value: '', unit: 'MB' as SizeUnit }
  const [name, setName] = useState(bucket?.name ?? '')
  const [isPublic, setIsPublic] = useState(bucket?.public ?? false)
  const [mimeMode, setMimeMode] = useState<MimeMode>(bucket?.allowed_mime_types == null ? 'all' : 'only')
  const [mimeText, setMimeText] = useState((bucket?.allowed_mime_types ?? []).join(', '))
  const [limitOn, setLimitOn] = useState(bucket?.file_size_limit != null)
  const [sizeValue, setSizeValue] = useState(initialSize.value)
  const [sizeUnit, setSizeUnit] = useState<SizeUnit>(initialSize.unit)
  const [errors, setErrors] = useState<{ name?: string; mime?: string; size?: string }>({})
  const mutation = bucket ? update : create

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const next: typeof errors = {}
    const nameCheck = BucketName.safeParse(name)
    if (!bucket && !nameCheck.success) next.name = nameCheck.error.issues[0]?.message
    const types = mimeText.split(/[\s,]+/).filter(Boolean)
    const badType = types.find((type) => !MimeType.safeParse(type).success)
    if (mimeMode === 'only' && badType) next.mime = `${badType} is not a MIME type: use type/subtype or type/*`
    const amount = Number(sizeValue)
    const factor = SIZE_UNITS.find((unit) => unit.label === sizeUnit)!.factor
    if (limitOn && (!sizeValue.trim() || !Number.isFinite(amount) || amount < 0 || !Number.isInteger(amount * factor))) {
      next.size = 'Enter a size of zero or more (whole bytes)'
    }
    setErrors(next)
    if (next.name || next.mime || next.size) return

    const fields = {
      public: isPublic,
      allowed_mime_types: mimeMode === 'all' ? null : types.map((type) => type.toLowerCase()),
      file_size_limit: limitOn ? amount * factor : null,
    }
    onPendingChange(true)
    const settle = { onSettled: () => onPendingChange(false) }
    if (bucket) {
      update.mutate(
        { ref: projectRef, id: bucket.id, body: fields },
        {
          ...settle,
          onSuccess: () => {
            toast.success(`Updated bucket ${bucket.name}`)
            onDone()
          },
        },
      )
    } else {
      const id = name.trim()
      create.mutate(
        { ref: projectRef, body: { name: id, ...fields } },
        {
          ...settle,
          onSuccess: () => {
            toast.success(`Created bucket ${id}`)
            onDone()
          },
        },
      )
    }
  }

  return (
    <form id={formId} className="stack" onSubmit={submit} noValidate>
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name}
        hint={bucket ? 'A bucket cannot be renamed.' : "Letters, digits, '.', '_' and '-'. It is also the bucket's id."}
        readOnly={Boolean(bucket)}
        autoFocus={!bucket}
        autoComplete="off"
        spellCheck={false}
        placeholder="avatars"
      />
      <Checkbox label="Public bucket" hint="Anyone can read its objects without a key. Writes still need one." checked={isPublic} onCheckedChange={setIsPublic} />
      <SelectField label="Allowed MIME types" value={mimeMode} onChange={(event) => setMimeMode(event.target.value as MimeMode)}>
        <option value="all">Any type</option>
        <option value="only">Only the types listed</option>
      </SelectField>
      {mimeMode === 'only' ? (
        <TextField
          label="MIME types"
          value={mimeText}
          onChange={(event) => setMimeText(event.target.value)}
          error={errors.mime}
          hint="Separated by commas, e.g. image/png, image/*. Leave empty to allow none."
          placeholder="image/png, image/*"
          spellCheck={false}
        />
      ) : null}
      <Checkbox label="Restrict file size" checked={limitOn} onCheckedChange={setLimitOn} />
      {limitOn ? (
        <div className="storage-size-row">
          <TextField
            label="File size limit"
            type="number"
            min={0}
            inputMode="decimal"
            value={sizeValue}
            onChange={(event) => setSizeValue(event.target.value)}
            error={errors.size}
            placeholder="50"
          />
          <SelectField label="Unit" value={sizeUnit} onChange={(event) => setSizeUnit(event.target.value as SizeUnit)}>
            {SIZE_UNITS.map((unit) => (
              <option key={unit.label} value={unit.label}>
                {unit.label}
              </option>
            ))}
          </SelectField>
        </div>
      ) : null}
      {mutation.isError ? <Alert tone="danger">{errorMessage(mutation.error)}</Alert> : null}
    </form>
  )
}

interface BucketFormDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  projectRef: string
  bucket?: Bucket
}

/** Create a bucket, or edit one (public, allowed MIME types, file size limit). */
export function BucketFormDialog({ open, onOpenChange, projectRef, bucket }: BucketFormDialogProps) {
  const formId = useId()
  const [pending, setPending] = useState(false)
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending && !next ? undefined : onOpenChange(next))}
      title={bucket ? `Edit bucket ${bucket.name}` : 'Create bucket'}
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={pending}>
            {bucket ? 'Save' : 'Create bucket'}
          </Button>
        </>
      }
    >
      <BucketForm formId={formId} projectRef={projectRef} bucket={bucket} onDone={() => onOpenChange(false)} onPendingChange={setPending} />
    </Dialog>
  )
}
