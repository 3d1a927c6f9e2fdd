import { Alert } from '../../components/ui/Alert'

const NOT_SERVED = {
  rest: {
    title: 'The REST API is not served yet',
    text: 'This Stratum does not answer requests at the project URL yet: the snippets show the calls with your project\u2019s names and keys as they will be made once it does.',
  },
  auth: {
    title: 'The auth API is not served yet',
    text: 'This Stratum does not answer /auth/v1 yet: the snippets show the calls as they will be made once it does.',
  },
  storage: {
    title: 'The storage API is not served yet',
    text: 'Buckets and their settings are real, but this Stratum does not answer /storage/v1 yet: uploading, downloading and listing files work once it does.',
  },
  functions: {
    title: 'Edge functions are not executed yet',
    text: 'Functions are stored and versioned, but this Stratum has no functions runtime so far: /functions/v1 answers once it arrives.',
  },
  realtime: {
    title: 'Realtime is not served yet',
    text: 'This Stratum does not answer /realtime/v1 yet: the snippets show the subscriptions as they will be made once it does.',
  },
} as const

export type NotServedApi = keyof typeof NOT_SERVED

/** Said once per page: the endpoint these docs describe is not answered by this Stratum yet. */
export function NotServedNote({ api = 'rest' }: { api?: NotServedApi }) {
  const note = NOT_SERVED[api]
  return (
    <Alert tone="warning" title={note.title}>
      {note.text}
    </Alert>
  )
}
