import type { AuthUser } from '@stratum/contracts'
import { Mail, Plus, Search, Users } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { AUTH_USERS_PER_PAGE, useAuthUsers } from '../../data/project-auth/useAuthUsers'
import { useDeleteAuthUser, useSendRecovery } from '../../data/project-auth/useAuthUserMutations'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { NewUserDialog, type NewUserMode } from './NewUserDialog'
import { AUTH_TEXTS } from './texts'
import { UsersTable } from './UsersTable'
import './auth-users.css'

/** /project/{ref}/auth/users: the project's end users (its auth service's admin API, as the service role). */
export function AuthUsersPage() {
  useProjectPageTitle('Users')
  const { ref, project } = useCurrentProject()
  const toast = useToast()
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const [search, setSearch] = useState('')
  const [keywords, setKeywords] = useState('')
  const [page, setPage] = useState(1)
  const users = useAuthUsers(ref, keywords, page)
  const recover = useSendRecovery()
  const remove = useDeleteAuthUser()
  const [adding, setAdding] = useState<NewUserMode | null>(null)
  const [deleting, setDeleting] = useState<AuthUser | null>(null)
  const list = users.data?.users ?? []
  const running = project?.status === 'ACTIVE_HEALTHY'

  const addButtons = (
    <>
      <Button icon={<Mail size={14} aria-hidden="true" />} onClick={() => setAdding('invite')} disabled={!canWrite || !running} disabledReason={AUTH_TEXTS.writePermission}>
        Invite user
      </Button>
      <Button variant="primary" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setAdding('create')} disabled={!canWrite || !running} disabledReason={AUTH_TEXTS.writePermission}>
        Create user
      </Button>
    </>
  )

  return (
    <div className="page">
      <PageHeader title="Users" description="The people who sign in to your app with this project's auth API: by password, magic link or one-time code." actions={addButtons} />
      <div className="stack">
        {!running && project ? <Alert tone="warning">{AUTH_TEXTS.notRunning}</Alert> : null}
        <form
          className="auth-search"
          role="search"
          onSubmit={(event) => {
            event.preventDefault()
            setPage(1)
            setKeywords(search.trim())
          }}
        >
          <TextField label="Search users" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Email, phone, name or user ID" />
          <Button type="submit" icon={<Search size={14} aria-hidden="true" />}>
            Search
          </Button>
        </form>
        <QueryState
          query={users}
          loadingLabel="Loading users…"
          errorTitle="Could not load the users"
          isEmpty={list.length === 0}
          empty={
            <Card>
              <EmptyState
                icon={<Users size={22} />}
                title={keywords ? `No users match "${keywords}"` : 'No users yet'}
                description="Users appear here when they sign up through your app, or when you create or invite them."
              />
            </Card>
          }
        >
          <UsersTable
            users={list}
            canWrite={canWrite && running}
            onRecover={(user) =>
              recover.mutate(
                { ref, email: user.email },
                {
                  onSuccess: () => toast.success(`Sent a password recovery email to ${user.email}`),
                  onError: (error) => toast.error(`Failed to send a recovery email: ${errorMessage(error)}`),
                },
              )
            }
            onDelete={(user) => {
              remove.reset()
              setDeleting(user)
            }}
          />
        </QueryState>
        {page > 1 || list.length === AUTH_USERS_PER_PAGE ? (
          <div className="auth-pager">
            <Button onClick={() => setPage(page - 1)} disabled={page === 1}>
              Previous page
            </Button>
            <span className="muted">Page {page}</span>
            <Button onClick={() => setPage(page + 1)} disabled={list.length < AUTH_USERS_PER_PAGE}>
              Next page
            </Button>
          </div>
        ) : null}
      </div>
      <NewUserDialog mode={adding} onClose={() => setAdding(null)} projectRef={ref} />
      <TypedConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete user ${deleting?.email || deleting?.phone || ''}`}
        confirmString={deleting?.email || deleting?.phone || deleting?.id || ''}
        confirmButton="Delete user"
        loading={remove.isPending}
        onConfirm={() => {
          if (!deleting) return
          const who = deleting.email || deleting.phone
          remove.mutate(
            { ref, id: deleting.id },
            {
              onSuccess: () => {
                toast.success(`Deleted user ${who}`)
                setDeleting(null)
              },
            },
          )
        }}
      >
        <p>The user, their identities and sessions are removed; their access tokens stop working at the next refresh.</p>
        {remove.isError ? <Alert tone="danger">{errorMessage(remove.error)}</Alert> : null}
      </TypedConfirmationDialog>
    </div>
  )
}
