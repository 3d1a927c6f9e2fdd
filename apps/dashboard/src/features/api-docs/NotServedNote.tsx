import { Alert } from '../../components/ui/Alert'

/** Said once per page: the REST endpoint these docs describe is not answered by this Stratum yet. */
export function NotServedNote() {
  return (
    <Alert tone="warning" title="The REST API is not served yet">
      This Stratum does not answer requests at the project URL yet: the snippets show the calls with your project&apos;s names
      and keys as they will be made once it does.
    </Alert>
  )
}
