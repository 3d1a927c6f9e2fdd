import type { AuthOutboxMessage } from '@stratum/contracts'
import { Inbox } from 'lucide-react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useCan } from '../../data/profile/useCan'
import { useAuthOutbox } from '../../data/project-auth/useAuthOutbox'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { formatDateTime } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { AUTH_TEXTS } from './texts'
import './auth-users.css'

/**
 * The message as text and its links: the service writes a small HTML template; it is shown as text
 * with its links listed, never rendered as HTML (the recipient's address and metadata are user input).
 */
function MessageBody({ message }: { message: AuthOutboxMessage }) {
  const links = [...message.body.matchAll(/href="([^"]+)"/g)].map((match) => decodeEntities(match[1]!))
  const text = decodeEntities(message.body.replace(/<\/(h2|p)>/g, '\n').replace(/<[^>]+>/g, '')).trim()
  return (
    <div className="auth-message-body">
      <p className="auth-message-text">{text}</p>
      {links.map((link) => (
        <a key={link} className="auth-message-link mono" href={link} target="_blank" rel="noreferrer noopener">
          {link}
        </a>
      ))}
    </div>
  )
}

const decodeEntities = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))

/** /project/{ref}/auth/outbox: where the auth service's emails and SMS codes go without an SMTP server. */
export function AuthOutboxPage() {
  useProjectPageTitle('Outbox')
  const { ref, project } = useCurrentProject()
  const canRead = useCan(project?.organization_slug, 'service_api_keys.read')
  const outbox = useAuthOutbox(ref, canRead)
  const messages = outbox.data ?? []
  return (
    <div className="page">
      <PageHeader
        title="Outbox"
        description="Confirmation emails, magic links, recovery links, invitations and SMS codes of this project's auth service. No mail server is configured, so they are kept here instead of being sent."
      />
      {!canRead ? (
        <Alert tone="warning">{AUTH_TEXTS.outboxPermission}</Alert>
      ) : (
        <QueryState
          query={outbox}
          loadingLabel="Loading messages…"
          errorTitle="Could not load the outbox"
          isEmpty={messages.length === 0}
          empty={
            <Card>
              <EmptyState icon={<Inbox size={22} />} title="No messages yet" description="Messages appear when users sign up, ask for a magic link or code, reset a password or are invited." />
            </Card>
          }
        >
          <ol className="auth-outbox" aria-label="Messages">
            {messages.map((message) => (
              <li key={message.id}>
                <Card
                  title={message.subject === 'SMS' ? `SMS to ${message.recipient}` : message.subject}
                  headingLevel={3}
                  description={
                    <>
                      To <span className="mono">{message.recipient}</span> · <time dateTime={message.created_at}>{formatDateTime(message.created_at)}</time>{' '}
                      <Badge tone="neutral">{message.channel === 'sms' ? 'SMS' : 'Email'}</Badge>
                    </>
                  }
                >
                  <MessageBody message={message} />
                </Card>
              </li>
            ))}
          </ol>
        </QueryState>
      )}
    </div>
  )
}
