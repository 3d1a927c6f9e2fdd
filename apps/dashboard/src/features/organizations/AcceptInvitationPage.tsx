import { ROLE_LABELS, type InvitationDetails, type Profile } from '@stratum/contracts'
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { BrandMark } from '../../components/BrandMark'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage, isApiError } from '../../data/api'
import { useSignOut } from '../../data/auth/useSignOut'
import { useAcceptInvitation, useDeclineInvitation } from '../../data/invitations/useAnswerInvitation'
import { useInvitationDetails } from '../../data/invitations/useInvitationDetails'
import { useProfile } from '../../data/profile/useProfile'
import { formatDate } from '../../lib/format'
import { signInPath } from '../../lib/returnTo'
import { usePageTitle } from '../../lib/usePageTitle'
import '../../components/sign-in.css'
import { ThemeToggle } from '../shell'
import './accept-invitation.css'
import { InvitationSignUpForm } from './InvitationSignUpForm'

/**
 * /invite/:token, the page an invitation link opens (no sign-in needed to see it). Someone new sets
 * their password here; an existing account signs in, then accepts or declines. Nothing joins
 * without that choice, and the link works once.
 */
export function AcceptInvitationPage() {
  const { token = '' } = useParams()
  const details = useInvitationDetails(token)
  const profile = useProfile()
  usePageTitle(['Invitation', details.data?.organization_name])

  return (
    <div className="sign-in">
      <div className="sign-in-theme">
        <ThemeToggle />
      </div>
      <main className="sign-in-card invitation-card">
        <div className="sign-in-brand">
          <BrandMark size={32} />
          <span>Stratum</span>
        </div>
        {details.isPending || profile.isPending ? <LoadingState label="Opening the invitation…" /> : null}
        {details.isError ? <UnusableLink message={errorMessage(details.error)} signedIn={profile.isSuccess} /> : null}
        {details.data && !profile.isPending ? (
          <Invitation
            token={token}
            invitation={details.data}
            me={profile.isSuccess ? profile.data : null}
            profileError={profile.isError && !isApiError(profile.error, 401) ? profile.error : null}
          />
        ) : null}
      </main>
    </div>
  )
}

function UnusableLink({ message, signedIn }: { message: string; signedIn: boolean }) {
  return (
    <>
      <h1>Invitation unavailable</h1>
      <Alert tone="danger" title="This link cannot be used">
        {message}
      </Alert>
      <p className="faint sign-in-foot">
        {signedIn ? <Link to="/organizations">Go to your organizations</Link> : <Link to="/sign-in">Sign in</Link>}
      </p>
    </>
  )
}

interface InvitationProps {
  token: string
  invitation: InvitationDetails
  me: Profile | null
  profileError: unknown
}

function Invitation({ token, invitation, me, profileError }: InvitationProps) {
  const [declined, setDeclined] = useState(false)
  if (declined) {
    return (
      <>
        <h1>Invitation declined</h1>
        <p className="muted sign-in-lead">You did not join {invitation.organization_name}. The link no longer works.</p>
        <p className="faint sign-in-foot">
          <Link to="/organizations">Go to your organizations</Link>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>Join {invitation.organization_name}</h1>
      <p className="muted sign-in-lead">
        {invitation.invited_by ? <strong>{invitation.invited_by}</strong> : 'An administrator'} invited{' '}
        <strong>{invitation.email}</strong> to join <strong>{invitation.organization_name}</strong> as{' '}
        {ROLE_LABELS[invitation.role]}.
      </p>
      {profileError ? (
        <Alert tone="danger" title="Could not load your account">
          {errorMessage(profileError)}
        </Alert>
      ) : me === null ? (
        invitation.account_exists ? (
          <SignInToAccept token={token} email={invitation.email} />
        ) : (
          <InvitationSignUpForm
            token={token}
            email={invitation.email}
            organizationName={invitation.organization_name}
          />
        )
      ) : me.primary_email === invitation.email ? (
        <AnswerAsSignedIn token={token} invitation={invitation} onDeclined={() => setDeclined(true)} />
      ) : (
        <WrongAccount me={me} invitation={invitation} />
      )}
      <p className="faint sign-in-foot">This link works once, until {formatDate(invitation.expires_at)}.</p>
    </>
  )
}

function SignInToAccept({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate()
  return (
    <div className="stack">
      <Alert tone="info">
        An account for {email} already exists. Sign in with it to accept or decline the invitation.
      </Alert>
      <Button variant="primary" className="sign-in-submit" onClick={() => navigate(signInPath(`/invite/${token}`))}>
        Sign in to accept
      </Button>
    </div>
  )
}

function AnswerAsSignedIn({
  token,
  invitation,
  onDeclined,
}: {
  token: string
  invitation: InvitationDetails
  onDeclined: () => void
}) {
  const navigate = useNavigate()
  const accept = useAcceptInvitation()
  const decline = useDeclineInvitation()
  const failure = accept.error ?? decline.error
  return (
    <div className="stack">
      {failure ? (
        <Alert tone="danger" title="Could not answer the invitation">
          {errorMessage(failure)}
        </Alert>
      ) : null}
      <div className="invitation-actions">
        <Button
          variant="primary"
          loading={accept.isPending}
          disabled={decline.isPending}
          onClick={() =>
            accept.mutate(
              { token },
              { onSuccess: ({ organization }) => navigate(`/org/${organization.slug}`, { replace: true }) },
            )
          }
        >
          Accept invitation
        </Button>
        <Button
          loading={decline.isPending}
          disabled={accept.isPending}
          onClick={() => decline.mutate({ id: invitation.id }, { onSuccess: onDeclined })}
        >
          Decline
        </Button>
      </div>
    </div>
  )
}

function WrongAccount({ me, invitation }: { me: Profile; invitation: InvitationDetails }) {
  const signOut = useSignOut()
  // Reloading starts the page over as nobody: the link then offers to sign in or sign up.
  return (
    <div className="stack">
      <Alert tone="warning" title="Signed in with another account">
        You are signed in as {me.primary_email}, and this invitation is for {invitation.email}. Sign out, then open the
        link again to answer it as {invitation.email}.
      </Alert>
      <Button
        className="sign-in-submit"
        loading={signOut.isPending}
        onClick={() => signOut.mutate(undefined, { onSettled: () => window.location.reload() })}
      >
        Sign out
      </Button>
    </div>
  )
}
