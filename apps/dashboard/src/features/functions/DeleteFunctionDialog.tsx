import { Alert } from '../../components/ui/Alert'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'

interface DeleteFunctionDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  slug: string
  loading: boolean
  error?: string
  onConfirm: () => void
}

export function DeleteFunctionDialog({ open, onOpenChange, slug, loading, error, onConfirm }: DeleteFunctionDialogProps) {
  return (
    <TypedConfirmationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${slug}`}
      confirmString={slug}
      confirmButton="Delete function"
      loading={loading}
      onConfirm={onConfirm}
    >
      <Alert tone="danger" title="This action cannot be undone" live={false}>
        The function <strong className="mono">{slug}</strong>, every version of it and its files are removed.
      </Alert>
      {error ? <Alert tone="danger">{error}</Alert> : null}
    </TypedConfirmationDialog>
  )
}
