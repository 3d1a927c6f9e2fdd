import { SnippetList } from './SnippetList'
import { broadcastSnippet, subscribeSnippets, type Language, type SnippetContext } from './snippets'

/** The API docs spec's limits: realtime channels are cleaned up this long after the client disconnects. */
export const CHANNEL_CLEANUP_SECONDS = 30

/** Realtime: listening to database changes and broadcasting on channels. */
export function RealtimePage({ lang, ctx, table }: { lang: Language; ctx: SnippetContext; table: string | undefined }) {
  return (
    <article className="docs-page">
      <header className="docs-page-header">
        <h3>Realtime</h3>
        <p className="muted">
          Listen to inserts, updates and deletes on your tables, and send messages between clients, over channels of a WebSocket.
        </p>
      </header>
      <div className="docs-prose">
        <p>
          A channel lives as long as a client is subscribed to it: channels are removed {CHANNEL_CLEANUP_SECONDS} seconds after the
          client disconnects. Remove a channel yourself with <code>supabase.removeChannel(channel)</code> when you stop listening.
        </p>
        <p>
          Changes reach a subscriber only for tables in the <code>supabase_realtime</code> publication (
          <code>alter publication supabase_realtime add table your_table;</code>), and only rows its role may select under
          the table&apos;s row-level security.
        </p>
        <p className="muted">
          Each table page shows its own subscribe snippets{table ? <>; the examples below use <code>{table}</code></> : null}.
        </p>
      </div>
      <SnippetList
        snippets={[
          ...subscribeSnippets(lang, ctx, table ?? 'todos'),
          { id: 'broadcast', title: 'Broadcast messages', description: 'Messages between clients, without the database.', code: broadcastSnippet(lang, ctx) },
        ]}
      />
    </article>
  )
}
