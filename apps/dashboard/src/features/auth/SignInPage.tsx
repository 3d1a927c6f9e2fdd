import { useState, type FormEvent } from 'react'
import { Navigate, useNavigate, useSearchParams } from 'react-router'
import { BrandMark } from '../../components/BrandMark'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'
import { useSignIn } from '../../data/auth/useSignIn'
import { useProfile } from '../../data/profile/useProfile'
import { safeReturnTo } from '../../lib/returnTo'
import { usePageTitle } from '../../lib/usePageTitle'
import { ThemeToggle } from '../shell'
import '../../components/sign-in.css'

export function SignInPage() {
  usePageTitle(['Sign in'])
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const returnTo = safeReturnTo(params.get('returnTo'))
  const profile = useProfile()
  const signIn = useSignIn()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({})

  // Already signed in (e.g. the back button): go where the user was heading.
  if (profile.isSuccess && !signIn.isPending && !signIn.isSuccess) return <Navigate to={returnTo} replace />

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const problems = {
      email: email.trim() ? undefined : 'Email is required',
      password: password ? undefined : 'Password is required',
    }
    setMissing(problems)
    if (problems.email || problems.password) return
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (signedIn) => {
          void navigate(signedIn.password_change_required ? '/account/me' : returnTo, { replace: true })
        },
      },
    )
  }

  return (
    <div className="sign-in">
      <div className="sign-in-theme">
        <ThemeToggle />
      </div>
      <main className="sign-in-card">
        <div className="sign-in-brand">
          <BrandMark size={32} />
          <span>Stratum</span>
        </div>
        <h1>Sign in</h1>
        <p className="muted sign-in-lead">Use your Stratum account.</p>
        <form className="stack" onSubmit={onSubmit} noValidate>
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={missing.email}
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={missing.password}
          />
          {signIn.isError ? (
            <Alert tone="danger" title="Could not sign in">
              {errorMessage(signIn.error)}
            </Alert>
          ) : null}
          <Button type="submit" variant="primary" loading={signIn.isPending} className="sign-in-submit">
            Sign in
          </Button>
        </form>
        <p className="faint sign-in-foot">
          There is no public sign-up. The first account comes from <code>STRATUM_ADMIN_EMAIL</code> when the server starts;
          everyone else joins through an invitation link from an organization&apos;s Team page.
        </p>
      </main>
    </div>
  )
}
