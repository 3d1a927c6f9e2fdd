import { Button } from '../../components/ui/Button'

/** A form dialog's footer: its submit builds the SQL and hands it to the preview, where it runs. */
export function ReviewFooter({ formId, onCancel }: { formId: string; onCancel: () => void }) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={formId} variant="primary">
        Review SQL
      </Button>
    </>
  )
}
