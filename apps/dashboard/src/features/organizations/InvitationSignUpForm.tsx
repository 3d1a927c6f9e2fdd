import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'
import { useSignUpWithInvitation } from '../../data/invitations/useAnswerInvitation'

interface Problems {
  password?: string
  confirm?: string
}

/** Someone without an account chooses their own password: the account is created and joins at once. */
export function InvitationSignUpForm({
  token,
  email,
  organizationName,
}: {
  token: string
  email: string
  organizationName: string
}) {
  const navigate = useNavigate()
  const signUp = useSignUpWithInvitation()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [problems, setProblems] = useState<Problems>({})

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found: Problems = {
      password: password.length < 8 ? 'Password must be at least 8 characters' : undefined,
      confirm: confirm !== password ? 'The passwords do not match' : undefined,
    }
    setProblems(found)
    if (found.password || found.confirm) return
    signUp.mutate(
      { token, password },
      { onSuccess: ({ organization }) => navigate(`/org/${organization.slug}`, { replace: true }) },
    )
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Create your account">
      <TextField label="Email" type="email" name="username" autoComplete="username" value={email} readOnly />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        autoFocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={problems.password}
        hint="At least 8 characters. Only you will know it."
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => setConfirm(event.target.value)}
        error={problems.confirm}
      />
      {signUp.isError ? (
        <Alert tone="danger" title="Could not create your account">
          {errorMessage(signUp.error)}
        </Alert>
      ) : null}
      <Button type="submit" variant="primary" loading={signUp.isPending} className="sign-in-submit">
        Join {organizationName}
      </Button>
    </form>
  )
}
