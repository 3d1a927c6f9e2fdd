import { Button } from '../../components/ui/Button'

/** The footer of every table-editor form: Cancel, and 'Review SQL' submitting the form (its SQL is shown before it runs). */
export function ReviewSqlFooter({ formId, onCancel }: { formId: string; onCancel: () => void }) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button variant="primary" type="submit" form={formId}>
        Review SQL
      </Button>
    </>
  )
}
