import { Alert } from '../../components/ui/Alert'

export type LaterSectionKey = 'user-management' | 'storage' | 'edge-functions' | 'realtime'

const LATER: Record<LaterSectionKey, { title: string; what: string; items: string[] }> = {
  'user-management': {
    title: 'User Management',
    what: 'the authentication API (/auth/v1)',
    items: ['Sign up and sign in with a password, a magic link or a one-time code', 'Read and update the signed-in user', 'Password recovery, invites and logout'],
  },
  storage: {
    title: 'Storage',
    what: 'file storage (/storage/v1)',
    items: ['Buckets, public or private, with MIME type and size limits', 'Upload, download, list and delete files', 'Signed and public URLs'],
  },
  'edge-functions': {
    title: 'Edge Functions',
    what: 'edge functions (/functions/v1)',
    items: ['The project\u2019s functions, each with its invoke snippet'],
  },
  realtime: {
    title: 'Realtime',
    what: 'realtime subscriptions',
    items: ['Listening to inserts, updates and deletes on a table', 'Channels, broadcast and presence'],
  },
}

/** A section whose backend this Stratum does not serve yet: said plainly, with nothing that pretends to work. */
export function LaterSection({ section }: { section: LaterSectionKey }) {
  const later = LATER[section]
  return (
    <article className="docs-page">
      <header className="docs-page-header">
        <h3>{later.title}</h3>
      </header>
      <Alert tone="info" title="Arrives in a later release">
        This Stratum does not serve {later.what} yet, so there is nothing to call here. These docs will cover it when it arrives.
      </Alert>
      <div className="docs-prose">
        <p className="muted">What this section will document:</p>
        <ul>
          {later.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </div>
    </article>
  )
}
