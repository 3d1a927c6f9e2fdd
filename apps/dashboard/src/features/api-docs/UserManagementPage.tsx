import { SnippetList } from './SnippetList'
import { authSnippets, type Language, type SnippetContext } from './snippets'

/** User Management: a snippet for each endpoint of the auth API. */
export function UserManagementPage({ lang, ctx }: { lang: Language; ctx: SnippetContext }) {
  return (
    <article className="docs-page">
      <header className="docs-page-header">
        <h3>User Management</h3>
        <p className="muted">
          Sign users up and in with a password, a magic link or a one-time code, read and update the signed-in user, recover
          passwords, log out and invite users. In Bash, <code>$USER_TOKEN</code> is the access token a sign-in returns.
        </p>
      </header>
      <SnippetList snippets={authSnippets(lang, ctx)} />
    </article>
  )
}
