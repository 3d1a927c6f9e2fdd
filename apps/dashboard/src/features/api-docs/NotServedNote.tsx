import { Alert } from '../../components/ui/Alert'

const NOT_SERVED = {
  realtime: {
    title: 'Realtime is not available yet',
    text: 'This Stratum closes connections to /realtime/v1 with the reason \u2018Realtime is not available on this platform yet\u2019: the snippets show the subscriptions as they will be made once it is served.',
  },
} as const

export type NotServedApi = keyof typeof NOT_SERVED

/** Said once per page: the endpoint these docs describe is not answered by this Stratum yet. */
export function NotServedNote({ api }: { api: NotServedApi }) {
  const note = NOT_SERVED[api]
  return (
    <Alert tone="warning" title={note.title}>
      {note.text}
    </Alert>
  )
}
