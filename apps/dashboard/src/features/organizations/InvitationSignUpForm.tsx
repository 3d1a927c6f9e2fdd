import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/Field'
import { NewPasswordFields, newPasswordProblems, type NewPasswordProblems } from '../../components/ui/NewPasswordFields'
import { errorMessage } from '../../data/api'
import { useSignUpWithInvitation } from '../../data/invitations/useAnswerInvitation'

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
  const [problems, setProblems] = useState<NewPasswordProblems>({})

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found = newPasswordProblems(password, confirm)
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
      <NewPasswordFields
        label="Password"
        hint="At least 8 characters. Only you will know it."
        password={password}
        confirm={confirm}
        onPasswordChange={setPassword}
        onConfirmChange={setConfirm}
        problems={problems}
        autoFocus
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
